#!/usr/bin/env node
// The three `mc` commands compose.yaml runs, against s3rver (which takes unsigned requests):
//   mc ready ALIAS                      exit 0 once the server answers (ALIAS local = :9000)
//   mc alias set NAME URL KEY SECRET    remember NAME's URL
//   mc mb [--ignore-existing] NAME/BUCKET

const fs = require("node:fs");
const path = require("node:path");
const os = require("node:os");

const file = path.join(os.homedir(), ".mc-standin.json");
const aliases = () => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { local: "http://127.0.0.1:9000" });
const die = (msg) => {
  console.error(`mc: ${msg}`);
  process.exit(1);
};

async function main(args) {
  const [cmd, ...rest] = args;
  if (cmd === "ready") {
    const url = aliases()[rest[0]] ?? die(`no alias ${rest[0]}`);
    const res = await fetch(`${url}/`).catch((e) => die(`${url}: ${e.cause?.code ?? e.message}`));
    if (res.status >= 500) die(`${url} answered ${res.status}`);
    return;
  }
  if (cmd === "alias" && rest[0] === "set" && rest.length >= 3) {
    fs.writeFileSync(file, JSON.stringify({ ...aliases(), [rest[1]]: rest[2].replace(/\/+$/, "") }));
    return;
  }
  if (cmd === "mb") {
    const ignoreExisting = rest.includes("--ignore-existing");
    const target = rest.find((a) => !a.startsWith("--")) ?? die("mb: no NAME/BUCKET");
    const [alias, bucket] = target.split("/");
    const url = aliases()[alias] ?? die(`no alias ${alias}`);
    const res = await fetch(`${url}/${bucket}`, { method: "PUT" });
    const body = await res.text();
    if (res.ok) return console.log(`Bucket created successfully \`${target}\`.`);
    if (ignoreExisting && /BucketAlready(Exists|OwnedByYou)/.test(body)) return;
    die(`mb ${target}: ${res.status} ${body}`);
  }
  die(`not supported by this stand-in: ${args.join(" ")}`);
}
main(process.argv.slice(2)).catch((e) => die(e.message));
