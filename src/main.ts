#!/usr/bin/env bun
// The `shelf` program: `bun src/main.ts <command>` from a checkout, and the entry that
// `make build` compiles. The command line and everything it starts are in src/wiring/.
import { run } from "./wiring/cli/index.ts";

run(Bun.argv.slice(2));
