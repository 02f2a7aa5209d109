// TypeScript types of an OpenAPI document, as a client project generates them with
// openapi-typescript. It builds them with the TypeScript 5 compiler API; the project's
// typescript is 7, native, whose package exports nothing but its version. So the API of
// typescript-5 is added to that package's exports (its version stays), where
// openapi-typescript's `import ts from "typescript"` finds it.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export async function openapiTypes(doc: object): Promise<string> {
  const ts = require("typescript") as Record<string, unknown>;
  if (!ts.factory) {
    const api = require("typescript-5") as Record<string, unknown>;
    for (const [name, value] of Object.entries(api)) if (!(name in ts)) ts[name] = value;
  }
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  return astToString(await openapiTS(doc as never));
}
