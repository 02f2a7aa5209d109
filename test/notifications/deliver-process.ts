// A worker process's deliverer, for the two-process test: builds its own dependencies from
// the environment (the test's database and SMTP_URL), says "ready", drains the outbox once
// it reads "go" on stdin, and prints what it did as JSON.
import { loadConfig } from "../../src/config.ts";
import { closeDeps, createDeps } from "../../src/wiring/deps.ts";
import { createMailer } from "../../src/infra/mail.ts";
import { deliverOutbox } from "../../src/modules/notifications/public.ts";

const config = loadConfig();
const deps = await createDeps(config, { migrate: false });
const mailer = createMailer(config, deps.log);
console.log("ready");
for await (const chunk of Bun.stdin.stream()) if (new TextDecoder().decode(chunk).includes("go")) break;
const done = await deliverOutbox(deps, mailer);
mailer.close();
console.log(JSON.stringify(done));
await closeDeps(deps);
