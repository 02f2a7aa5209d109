// Never a 500, forms: each text field of every multipart upload,
// sent with a file the route accepts (so the field, not the file, decides the answer), and
// each field of the form-encoded OAuth endpoints, get bad values.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { fixture } from "../audio/fixtures.ts";
import { png } from "../images/fixtures.ts";
import { jsonBytes, manifestOf, rawZip } from "../migration/fixtures.ts";
import { clip } from "../videos/fixtures.ts";
import { BAD_ESCAPES, type BadRequest, fillPath, type Json, type Operation, operations, resolve, sweep } from "./no-500-sweep.ts";

// Each test sends dozens to hundreds of requests (uploads among them): on a busy CI
// machine that takes far longer than the default 5 s per test.
setDefaultTimeout(30_000);

const schemaOf = (o: Operation, type: string): Json | undefined => {
  const s = o.op.requestBody?.content?.[type]?.schema;
  return s ? resolve(s) : undefined;
};

/** Field values as raw bytes: invalid UTF-8 has no string form. */
const bytes = (s: string) => new TextEncoder().encode(s);
const BAD_FIELDS: [string, Uint8Array][] = [
  ["empty", bytes("")],
  ["5000 characters", bytes("x".repeat(5000))],
  ["-1", bytes("-1")],
  ["1e309", bytes("1e309")],
  ["[object]", bytes("[object Object]")],
  ["JSON object", bytes('{"__proto__":{"isAdmin":true}}')],
  ["deep JSON array", bytes(`${"[".repeat(1000)}${"]".repeat(1000)}`)],
  ["100 tags", bytes(JSON.stringify(Array.from({ length: 100 }, (_, i) => `t${i}`)))],
  ["NUL and controls", bytes("a\u0000b\u001b[31m")],
  ["invalid UTF-8", new Uint8Array([0x61, 0xc3, 0x28, 0x62])],
];

const BOUNDARY = "sweepformboundary";
const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const textPart = (name: string, value: Uint8Array) => [bytes(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), value, bytes("\r\n")];
const filePart = (file: Uint8Array, filename: string) => [
  bytes(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  file,
  bytes("\r\n"),
];

/** A file each upload route takes. */
const FILES: Record<string, () => Promise<[Uint8Array, string]>> = {
  "/v1/images": async () => [await png(), "a.png"],
  "/v1/videos": async () => [await clip({ seconds: 1 }), "clip.mp4"],
  "/v1/audio": async () => [await fixture("mp3"), "a.mp3"],
  "/v1/videos/{id}/thumbnail": async () => [await png(64, 36), "thumb.png"],
  "/v1/docs": async () => [bytes("# Notes\n\nSome text."), "notes.md"],
  "/v1/migration": async () => [rawZip([{ name: "manifest.json", bytes: jsonBytes(manifestOf([])) }]), "export.zip"],
};

let total = 0;

describe("bad multipart fields never answer 5xx", () => {
  for (const o of operations.filter((o) => schemaOf(o, "multipart/form-data"))) {
    test(`${o.method} ${o.path}`, async () => {
      const [file, filename] = await FILES[o.path]!();
      const names = Object.keys(schemaOf(o, "multipart/form-data")!.properties ?? {}).filter((n) => n !== "file");
      const multipart = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
      total += await sweep(o, (c) => {
        const path = fillPath(o, c);
        const form = (input: string, parts: Uint8Array[][]): BadRequest => ({
          input,
          path,
          headers: multipart,
          body: concat([...parts.flat(), ...filePart(file, filename), bytes(`--${BOUNDARY}--\r\n`)]),
        });
        const reqs = [form("unknown field", [textPart("zzz", bytes("1")), textPart("__proto__", bytes("{}"))])];
        for (const name of [...names, "filename"]) {
          for (const [input, value] of BAD_FIELDS) reqs.push(form(`${name}: ${input}`, [textPart(name, value)]));
          reqs.push(form(`${name}: repeated`, [textPart(name, bytes("true")), textPart(name, bytes("false"))]));
        }
        reqs.push({ ...form("file name of 300 characters", []), body: concat([...filePart(file, `${"a".repeat(300)}.png`), bytes(`--${BOUNDARY}--\r\n`)]) });
        reqs.push({ ...form("file name with traversal", []), body: concat([...filePart(file, "../../etc/passwd"), bytes(`--${BOUNDARY}--\r\n`)]) });
        return reqs;
      });
    });
  }
});

const FORM_VALUES: [string, string][] = [
  ["empty", ""],
  ["5000 characters", "x".repeat(5000)],
  ...BAD_ESCAPES,
  ["-1", "-1"],
  ["[object]", "%5Bobject%20Object%5D"],
];

describe("bad form-encoded fields never answer 5xx", () => {
  for (const o of operations.filter((o) => schemaOf(o, "application/x-www-form-urlencoded"))) {
    test(`${o.method} ${o.path}`, async () => {
      const schema = schemaOf(o, "application/x-www-form-urlencoded")!;
      // Pages with an undeclared form: the fields they read.
      const names = Object.keys(schema.properties ?? {});
      if (!names.length) names.push("user_code", "action", "client_id", "redirect_uri", "state", "csrf");
      const base = ((schema.required as string[] | undefined) ?? []).map((n) => `${n}=x`);
      const headers = { "content-type": "application/x-www-form-urlencoded" };
      total += await sweep(o, (c) => {
        const path = fillPath(o, c);
        const form = (input: string, fields: string[]): BadRequest => ({ input, path, headers, body: fields.join("&") });
        const reqs = [form("empty body", []), form("no equals signs", ["a&b&&c"]), form("unknown field", [...base, "zzz=1", "__proto__=1"])];
        for (const name of names) {
          const rest = base.filter((f) => !f.startsWith(`${name}=`));
          for (const [input, value] of FORM_VALUES) reqs.push(form(`${name}: ${input}`, [...rest, `${name}=${value}`]));
          reqs.push(form(`${name}: repeated`, [...rest, `${name}=a`, `${name}=b`]));
          reqs.push(form(`${name}: bracketed`, [...rest, `${name}[a]=1`]));
        }
        return reqs.flatMap((r) => [r, { ...r, input: `${r.input}, no credential`, anonymous: true }]);
      });
    });
  }
});

test("the sweep covered every form route", () => {
  expect(operations.filter((o) => schemaOf(o, "multipart/form-data")).length).toBe(6);
  expect(operations.filter((o) => schemaOf(o, "application/x-www-form-urlencoded")).length).toBe(6);
  console.info(`no-500 form sweep: ${total} requests`);
});
