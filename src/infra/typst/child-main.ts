// The compiler process's entry from a checkout (index.ts spawns `bun child-main.ts`); the
// compiled binary enters runTypstChild through its hidden `__typst-compile` command.
import { runTypstChild } from "./child.ts";

await runTypstChild();
