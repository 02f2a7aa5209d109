// A note that begins with a byte order mark comes back with it: the text is the client's,
// and its hash (which includes the mark) must match what raw by path answers, inline or in
// the object store, on PGlite as on Postgres.
import { expect, setDefaultTimeout, test } from "bun:test";
import { call } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { newKb, pushed, sha256, upsert } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

test("a leading BOM is kept, small (inline) and large (in the object store), and the hash matches the bytes", async () => {
  const user = await makeUser({ plan: "pro" });
  const kb = await newKb(user.jwt);
  const small = "\uFEFF# Title\r\n\r\nwith a mark\r\n";
  const large = `\uFEFF${"a line of a long note\n".repeat(20_000)}`;
  await pushed(user.jwt, kb.id, [upsert("small.md", small), upsert("large.md", large)]);
  for (const [path, text] of [
    ["small.md", small],
    ["large.md", large],
  ] as const) {
    const res = await call("GET", `/v1/kbs/${kb.id}/raw?path=${path}`, { token: user.jwt });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new Bun.CryptoHasher("sha256").update(bytes).digest("hex")).toBe(sha256(text));
    expect(res.headers.get("x-source-hash")).toBe(sha256(text));
  }
});
