// Never a 500, bodies: every operation with a JSON body gets wrong
// types, huge strings, out-of-range numbers, deep nesting and prototype keys, each sent on an
// otherwise valid body (so a value the schema lets through reaches the service and the
// database); every multipart upload gets empty, nameless, misnamed and truncated bodies.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { del, upsert } from "../kbs/fixtures.ts";
import { delete2, move2, rename2, update2, upsert2, V2 } from "../kbs/v2-fixtures.ts";
import { makeUser } from "../helpers/factories.ts";
import { type BadRequest, fillPath, type Json, type Operation, operations, resolve, sample, sweep } from "./no-500-sweep.ts";

// Each test sends dozens to hundreds of requests (uploads among them): on a busy CI
// machine that takes far longer than the default 5 s per test.
setDefaultTimeout(30_000);

const jsonSchema = (o: Operation): Json | undefined => {
  const s = o.op.requestBody?.content?.["application/json"]?.schema;
  return s ? resolve(s) : undefined;
};
const isMultipart = (o: Operation) => !!o.op.requestBody?.content?.["multipart/form-data"];

const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** Raw JSON texts: several (1e309, -0, 2**63) have no JSON.stringify form. */
const BAD_VALUES: [string, string][] = [
  ["number", "12345"],
  ["string", '"x"'],
  ["boolean", "true"],
  ["array", '["x",1]'],
  ["nested object", '{"a":{"b":{"c":1}}}'],
  ["null", "null"],
  ["100k string", JSON.stringify("x".repeat(100_000))],
  ["1e309", "1e309"],
  ["-0", "-0"],
  ["2**63", "9223372036854775808"],
  ["-2**63-1", "-9223372036854775809"],
  ["fraction", "1.5"],
  ["depth 1000", deep(1000)],
  ["__proto__ object", '{"__proto__":{"isAdmin":true}}'],
];

/** The body with one property's value replaced by raw JSON text. */
function withRaw(base: Json, name: string, raw: string): string {
  const rest = Object.entries(base)
    .filter(([k]) => k !== name)
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return `{${[...rest, `${JSON.stringify(name)}:${raw}`].join(",")}}`;
}

async function keepCdnHosts(): Promise<() => Promise<void>> {
  const admin = await makeUser({ isAdmin: true });
  const { hosts } = (await callJson("GET", "/v1/admin/doc-cdn-hosts", { token: admin.jwt })).body.data;
  return async () => {
    const res = await callJson("PUT", "/v1/admin/doc-cdn-hosts", { token: admin.jwt, json: { hosts } });
    expect(res.status).toBe(200);
  };
}

const JSON_TYPE = { "content-type": "application/json" };
const V2_TYPE = { ...JSON_TYPE, ...V2 };
/** One valid op of each kind, v1 and v2, for the sync route's item sweep. */
const SYNC_ITEMS: [string, Json, Record<string, string>][] = [
  ["v1 upsert ", upsert("notes/a.md", "hello"), JSON_TYPE],
  ["v1 delete ", del("notes/a.md"), JSON_TYPE],
  ["v2 upsert ", upsert2("notes/a.md", "hello"), V2_TYPE],
  ["v2 update ", update2("abcdefghijklmnopqrstu", "hello"), V2_TYPE],
  ["v2 delete ", delete2("notes/a.md"), V2_TYPE],
  ["v2 move ", move2("notes/a.md", "notes/b.md", "hello"), V2_TYPE],
  ["v2 rename ", rename2("abcdefghijklmnopqrstu", "b.md", "hello"), V2_TYPE],
  ["v2 tombstone_ack ", { op: "tombstone_ack", docId: "abcdefghijklmnopqrstu" }, V2_TYPE],
];
let total = 0;

describe("bad JSON bodies never answer 5xx", () => {
  for (const o of operations.filter((o) => jsonSchema(o))) {
    test(`${o.method} ${o.path}`, async () => {
      // PUT /v1/admin/doc-cdn-hosts replaces the one instance-wide allow-list other tests
      // read: whatever a bad body lets through, the list is put back as it was.
      const restore = o.path === "/v1/admin/doc-cdn-hosts" ? await keepCdnHosts() : async () => {};
      const schema = jsonSchema(o)!;
      const base = (sample(schema) ?? {}) as Json;
      const names = Object.keys(schema.properties ?? {});
      total += await sweep(o, (c) => {
        const path = fillPath(o, c);
        const body = (input: string, text: string): BadRequest => ({ input, path, headers: JSON_TYPE, body: text });
        const reqs: BadRequest[] = [
          body("{}", "{}"),
          body("array body", "[]"),
          body("depth 1000 body", deep(1000)),
          body("__proto__ key", withRaw(base, "__proto__", '{"isAdmin":true,"plan":"pro_plus"}')),
          body("constructor key", withRaw(base, "constructor", '{"prototype":{"isAdmin":true}}')),
          body("unknown key", withRaw(base, "zzz", "1")),
          body("truncated", JSON.stringify(base).slice(0, -1)),
          body("null body", "null"),
          body("string body", '"x"'),
          body("1e309 body", "1e309"),
          body("empty body", ""),
          body("whitespace body", " \n\t "),
          body("byte order mark", `\ufeff${JSON.stringify(base)}`),
          body("duplicate keys", `${JSON.stringify(base).slice(0, -1)}${Object.keys(base).length ? "," : ""}"zz":1,"zz":{}}`),
          body("trailing garbage", `${JSON.stringify(base)}}}`),
          body("two documents", `${JSON.stringify(base)}\n${JSON.stringify(base)}`),
        ];
        for (const name of names) for (const [input, raw] of BAD_VALUES) reqs.push(body(`${name}: ${input}`, withRaw(base, name, raw)));
        // Arrays of objects (sync ops): each property of one otherwise valid item.
        for (const name of names) {
          const items = resolve(resolve(schema.properties[name]).items ?? {});
          if (items.type !== "object") continue;
          const samples: [string, Json, Record<string, string>][] = o.path === "/v1/kbs/{id}/sync" ? SYNC_ITEMS : [["", sample(items) as Json, JSON_TYPE]];
          for (const [label, item, headers] of samples)
            for (const key of new Set([...Object.keys(item), ...Object.keys(items.properties ?? {})]))
              for (const [input, raw] of BAD_VALUES)
                reqs.push({ ...body(`${label}${name}[0].${key}: ${input}`, withRaw(base, name, `[${withRaw(item, key, raw)}]`)), headers });
        }
        return reqs;
      }).finally(restore);
    });
  }
});

const BOUNDARY = "sweepboundary";
const MULTIPART = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
const part = (disposition: string, content: string, type = "application/octet-stream") =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: ${type}\r\n\r\n${content}\r\n`;
const close = `--${BOUNDARY}--\r\n`;
const PNG_MAGIC = "\x89PNG\r\n\x1a\n";

const MULTIPART_BODIES: [string, Record<string, string>, string][] = [
  ["empty body", MULTIPART, ""],
  ["no parts", MULTIPART, close],
  ["part without a filename", MULTIPART, part('name="file"', "hello") + close],
  ["wrong field name", MULTIPART, part('name="upload"; filename="a.png"', PNG_MAGIC, "image/png") + close],
  ["truncated body", MULTIPART, part('name="file"; filename="a.png"', PNG_MAGIC.repeat(50), "image/png").slice(0, 120)],
  ["no boundary", { "content-type": "multipart/form-data" }, part('name="file"; filename="a.png"', PNG_MAGIC) + close],
  ["empty file", MULTIPART, part('name="file"; filename="a.png"', "", "image/png") + close],
  ["filename of 300 characters and NUL", MULTIPART, part(`name="file"; filename="${"a".repeat(300)}\u0000.png"`, PNG_MAGIC, "image/png") + close],
  ["duplicate file parts", MULTIPART, part('name="file"; filename="a.png"', PNG_MAGIC) + part('name="file"; filename="b.png"', PNG_MAGIC) + close],
  ["file field as text with bad fields", MULTIPART, part('name="file"; filename="a.png"', PNG_MAGIC) + part('name="tags"', "[".repeat(1000)) + close],
];

describe("bad multipart bodies never answer 5xx", () => {
  for (const o of operations.filter(isMultipart)) {
    test(`${o.method} ${o.path}`, async () => {
      total += await sweep(o, (c) => {
        const path = fillPath(o, c);
        return MULTIPART_BODIES.map(([input, headers, text]) => ({ input, path, headers, body: text }));
      });
    });
  }
});

test("the sweep covered every body route", () => {
  expect(operations.filter((o) => jsonSchema(o)).length).toBeGreaterThan(20);
  // The four uploads, and POST /v1/docs and POST /v1/migration, which take a form as well as JSON.
  expect(operations.filter(isMultipart).length).toBe(6);
  console.info(`no-500 body sweep: ${total} requests`);
});
