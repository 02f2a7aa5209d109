// The dashboard's API types, generated from the OpenAPI document the server serves, so the
// browser code's view of every answer is the document's, not a copy kept by hand (a test,
// test/foundation/dashboard-types.test.ts, checks the committed file is current).
//   bun scripts/dashboard-types.ts           print the types
//   bun scripts/dashboard-types.ts --write   rewrite dashboard/api.gen.ts
import { openapiTypes } from "../test/helpers/openapi-types.ts";

export const TYPES_FILE = "dashboard/api.gen.ts";

const HEADER = `// Generated from the server's OpenAPI document by scripts/dashboard-types.ts: do not edit.
// The dashboard names the answers it reads through these (answer types in api.ts).
`;

/** The file's text for the document `doc`. */
export async function dashboardTypes(doc: object): Promise<string> {
  return HEADER + (await openapiTypes(doc));
}

if (import.meta.main) {
  process.env.LOG_LEVEL ??= "silent";
  const { testContext } = await import("../test/helpers/context.ts");
  const { app } = await testContext();
  const doc = (await (await app.handle(new Request("http://localhost/swagger/json"))).json()) as object;
  const text = await dashboardTypes(doc);
  if (process.argv.includes("--write")) await Bun.write(TYPES_FILE, text);
  else console.log(text);
  process.exit(0);
}
