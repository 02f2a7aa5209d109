// Generates the documentation's tables from the code, so they cannot drift (a test compares
// them): the configuration table of docs/operators.md from the config variables, and the
// route-scope and error-code tables of docs/api.md from the OpenAPI document and the codes.
//   bun scripts/doc-tables.ts           print both tables
//   bun scripts/doc-tables.ts --write   rewrite them in their pages
import { variables } from "../src/config.ts";
import { ERROR_STATUS } from "../src/core/errors.ts";

export function configTable(): string {
  const rows = Object.entries(variables).map(([name, v]) => {
    const def = v.default === undefined ? "" : `\`${String(v.default)}\``;
    return `| \`${name}\` | ${def} | ${v.doc.replaceAll("|", "\\|")} |`;
  });
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}

type Op = { "x-required-scope"?: string; "x-session-only"?: boolean; "x-rate-limit-tier"?: string };

export function scopeTable(doc: { paths: Record<string, Record<string, Op>> }): string {
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [method, op] of Object.entries(ops)) {
      const scope = op["x-required-scope"];
      if (!scope) continue;
      const admin = op["x-session-only"] ? "admin account, signed-in session (JWT) only" : "admin account";
      const anyOf = scope
        .split(" ")
        .map((s) => `\`${s}\``)
        .join(" or ");
      const shown = scope === "session" ? "signed-in session (JWT) only" : scope === "admin" ? admin : anyOf;
      rows.push(`| ${method.toUpperCase()} | \`${path}\` | ${shown} | ${op["x-rate-limit-tier"] ?? ""} |`);
    }
  }
  return ["| method | path | needs | rate tier |", "|---|---|---|---|", ...rows].join("\n");
}

/** Every error code by its HTTP status, in the order errors.ts lists them. */
export function errorTable(): string {
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS)) byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\``]);
  const rows = [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => `| ${status} | ${codes.join(", ")} |`);
  return ["| status | codes |", "|---|---|", ...rows].join("\n");
}

/** Where each generated table lives. */
export const TABLE_PAGES = { "config-table": "docs/operators.md", "scope-table": "docs/api.md", "error-table": "docs/api.md" } as const;

export function replaceBlock(readme: string, name: string, body: string): string {
  const re = new RegExp(`(<!-- ${name} -->)[\\s\\S]*?(<!-- /${name} -->)`);
  if (!re.test(readme)) throw new Error(`the page has no <!-- ${name} --> block`);
  return readme.replace(re, (_m, open: string, close: string) => `${open}\n${body}\n${close}`);
}

if (import.meta.main) {
  process.env.LOG_LEVEL ??= "silent";
  const { testContext } = await import("../test/helpers/context.ts");
  const { app } = await testContext();
  const doc = (await (await app.handle(new Request("http://localhost/swagger/json"))).json()) as never;
  const tables = { "config-table": configTable(), "scope-table": scopeTable(doc), "error-table": errorTable() };
  if (process.argv.includes("--write")) {
    for (const [name, body] of Object.entries(tables)) {
      const page = TABLE_PAGES[name as keyof typeof TABLE_PAGES];
      await Bun.write(page, replaceBlock(await Bun.file(page).text(), name, body));
    }
  } else {
    for (const body of Object.values(tables)) console.log(`${body}\n`);
  }
  process.exit(0);
}
