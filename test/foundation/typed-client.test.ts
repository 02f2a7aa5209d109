// A client project's view of the API: types generated from the live document with
// openapi-typescript, a program written against them with openapi-fetch, type-checked
// strictly with no cast (uploads included: a file part is `format: binary`, a Blob in the
// types) and run against a listening server. A status or field the document gets wrong
// breaks either the type-check or the run. openapi-typescript's command line, run inside
// this repository as a contributor would, makes types from the same document that
// type-check too (the TypeScript 7 compiler the project uses has no API it can call).
import { expect, setDefaultTimeout, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/wiring/app.ts";
import { png } from "../images/fixtures.ts";
import { tempDir, testContext } from "../helpers/context.ts";
import { openapiTypes } from "../helpers/openapi-types.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ROOT = join(import.meta.dir, "../..");

// Every integer is declared `number` and the 204s are named as documented statuses: with
// `string | number`, or a 204 the document lacks, the type-check fails before anything runs.
const CLIENT = `
import { readFileSync } from "node:fs";
import createClient from "openapi-fetch";
import type { paths } from "./api.ts";

const [baseUrl, pngPath] = process.argv.slice(2);
if (!baseUrl || !pngPath) throw new Error("usage: client.ts BASE_URL PNG");
function check(ok: boolean, step: string, detail?: unknown): asserts ok {
  if (!ok) throw new Error(step + ": " + JSON.stringify(detail));
}

const anonymous = createClient<paths>({ baseUrl });
const signup = await anonymous.POST("/v1/auth/signup", { body: { email: "typed-" + crypto.randomUUID() + "@example.test", password: "a typed password" } });
check(!!signup.data, "sign-up", signup.error);
// 202 when the operator asks new accounts to confirm their address first: no session then.
const grant = signup.data.data;
check(!("verificationRequired" in grant), "sign-up opened a session", grant);
if ("verificationRequired" in grant) throw new Error("unreachable");
const expiresIn: number = grant.expiresIn;
check(signup.response.status === 201 && expiresIn > 0 && signup.response.headers.get("set-cookie")!.startsWith("shelf_refresh="), "sign-up answer");

const session = createClient<paths>({ baseUrl, headers: { authorization: "Bearer " + grant.accessToken } });
const created = await session.POST("/v1/api-keys", {
  body: { name: "typed client", scopes: ["media.read", "media.write", "media.delete", "usage.read"] },
});
check(!!created.data, "key", created.error);
const client = createClient<paths>({ baseUrl, headers: { authorization: "Bearer " + created.data.data.key } });

// openapi-fetch sends a body as JSON unless told: the typed fields as multipart parts, a
// File with its name.
const multipart = (body: Record<string, string | Blob | undefined>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) if (value !== undefined) form.append(name, value);
  return form;
};
const bytes = readFileSync(pngPath);
const ids: string[] = [];
let stored = 0;
for (const name of ["one.png", "two.png", "three.png"]) {
  const file = new File([bytes], name, { type: "image/png" });
  const up = await client.POST("/v1/images", { body: { file, tags: JSON.stringify(["typed"]) }, bodySerializer: multipart });
  check(!!up.data, "upload", up.error);
  const size: number = up.data.data.size;
  const width: number = up.data.data.width;
  check(up.response.status === 201 && width === 24 && size > 0, "upload answer", up.data);
  check(up.response.headers.get("ratelimit-limit") === "60", "upload rate limit", up.response.headers.get("ratelimit-limit"));
  ids.push(up.data.data.id);
  stored = size;
}

const listPage = (cursor: string | null) => client.GET("/v1/images", { params: { query: { limit: 2, tag: "typed", ...(cursor ? { cursor } : {}) } } });
const seen: string[] = [];
let cursor: string | null = null;
do {
  const page = await listPage(cursor);
  check(!!page.data, "list", page.error);
  const total: number = page.data.data.total;
  check(total === 3, "total", total);
  for (const item of page.data.data.items) seen.push(item.id);
  cursor = page.data.data.nextCursor;
} while (cursor);
check(JSON.stringify(seen) === JSON.stringify([...ids].reverse()), "pages", { seen, ids });

const [first, second] = ids as [string, string];
const patched = await client.PATCH("/v1/images/{id}", { params: { path: { id: first } }, body: { filename: "renamed.png", is_public: false } });
check(!!patched.data && patched.data.data.filename === "renamed.png" && !patched.data.data.is_public, "patch", patched.error);
const refused = await client.PATCH("/v1/images/{id}", { params: { path: { id: first } }, body: { filename: "a/b" } });
check(refused.response.status === 422 && refused.error?.code === "VALIDATION_ERROR", "refused patch", refused.error);

// A 204 is a documented status, or a client reading the status could not name it.
const noContent: keyof paths["/v1/images/{id}"]["delete"]["responses"] & keyof paths["/v1/auth/logout"]["post"]["responses"] = 204;
const deleted = await client.DELETE("/v1/images/{id}", { params: { path: { id: second } } });
check(deleted.response.status === noContent && !deleted.error, "delete", deleted.error);
const gone = await client.GET("/v1/images/{id}", { params: { path: { id: second } } });
check(gone.response.status === 404 && gone.error?.code === "NOT_FOUND", "deleted image", gone.error);

const usage = await client.GET("/v1/user/me/usage");
check(!!usage.data, "usage", usage.error);
const used: number = usage.data.data.image.storage.used;
const uploads: number = usage.data.data.uploads.day.used;
check(used > stored && uploads === 3, "usage counts", usage.data.data);

const logout = await session.POST("/v1/auth/logout");
check(logout.response.status === noContent && logout.response.headers.get("set-cookie")!.startsWith("shelf_refresh=;"), "logout", logout.error);
console.log("typed client: ok");
`;

// Against the command line's types: they type-check with the client's own.
const CLI_CLIENT = `
import createClient from "openapi-fetch";
import type { paths } from "./cli-api.ts";

export async function liveness(baseUrl: string): Promise<"ok" | "unhealthy" | undefined> {
  const res = await createClient<paths>({ baseUrl }).GET("/health");
  return res.data?.data.status;
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ESNext",
    module: "Preserve",
    moduleResolution: "bundler",
    lib: ["ESNext", "DOM"],
    types: ["bun"],
    allowImportingTsExtensions: true,
    skipLibCheck: true,
  },
  include: ["*.ts"],
};

async function run(cmd: string[], cwd: string) {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: out + err };
}

test("a client generated from the document type-checks strictly with no cast and signs up, makes a key, uploads, pages, patches, deletes, reads usage and logs out; the command line generates inside the repository", async () => {
  const { services } = await testContext();
  const server = createApp(services).listen({ port: 0, hostname: "127.0.0.1" });
  try {
    const baseUrl = server.server!.url.origin;
    const doc = (await (await fetch(`${baseUrl}/swagger/json`)).json()) as object;
    const dir = tempDir("shelf-typed-client-");
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    await Bun.write(join(dir, "api.ts"), await openapiTypes(doc));
    const cli = await run(["bunx", "openapi-typescript", `${baseUrl}/swagger/json`, "-o", join(dir, "cli-api.ts")], ROOT);
    expect(cli.output).toContain("cli-api.ts");
    expect(cli.code).toBe(0);
    await Bun.write(join(dir, "cli-client.ts"), CLI_CLIENT);
    await Bun.write(join(dir, "client.ts"), CLIENT);
    await Bun.write(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
    await Bun.write(join(dir, "image.png"), await png(24, 16));

    const typecheck = await run(["bunx", "tsc", "--noEmit", "--strict", "-p", dir], dir);
    expect(typecheck.output).toBe("");
    expect(typecheck.code).toBe(0);

    const client = await run(["bun", "client.ts", baseUrl, join(dir, "image.png")], dir);
    expect(client.output).toBe("typed client: ok\n");
    expect(client.code).toBe(0);
  } finally {
    server.stop(true);
  }
}, 60_000); // two compilers run here: a busy machine takes seconds, more than the default timeout
