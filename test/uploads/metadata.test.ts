// Upload-Metadata is the client's text, echoed by HEAD (tus) and GET: any key is an
// ordinary key (the names of Object.prototype included), and no value comes back with the
// control or bidi characters no name keeps, as a form's file name loses them.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { png } from "../images/fixtures.ts";
import { create, metaHeader, patch, tusCall, uploader } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** HEAD's Upload-Metadata decoded, as a list of [key, value]. */
const echoed = (header: string | null) =>
  (header ?? "")
    .split(",")
    .map((pair) => pair.split(" "))
    .map(([k, v]) => [k!, v === undefined ? "" : Buffer.from(v, "base64").toString("utf8")] as const);

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("keys named like Object.prototype's", () => {
  test("constructor, __proto__, toString, hasOwnProperty and valueOf are kept and echoed like any key; the upload finishes", async () => {
    const { key } = await uploader();
    const bytes = await png(8, 8);
    const odd = [
      ["constructor", "c"],
      ["__proto__", "p"],
      ["toString", "t"],
      ["hasOwnProperty", "h"],
      ["valueOf", "v"],
    ] as const;
    const header = `kind ${btoa("image")},filename ${btoa("odd.png")},${odd.map(([k, v]) => `${k} ${btoa(v)}`).join(",")}`;
    const res = await tusCall("POST", "/v1/uploads", key, { "upload-length": String(bytes.length), "upload-metadata": header });
    expect(res.status).toBe(201);
    const path = res.headers.get("location")!;
    const head = await tusCall("HEAD", path, key);
    expect(head.status).toBe(200);
    // In any order: the server keeps them as a JSON object.
    const sorted = (pairs: readonly (readonly [string, string])[]) => [...pairs].sort(([a], [b]) => (a < b ? -1 : 1));
    expect(sorted(echoed(head.headers.get("upload-metadata")))).toEqual(sorted([["kind", "image"], ["filename", "odd.png"], ...odd]));
    const done = await patch(key, path, 0, bytes);
    expect(done.status).toBe(204);
    expect((await callJson("GET", path, { token: key })).body.data).toMatchObject({ status: "complete", filename: "odd.png" });
  });

  test("a key given twice is still 400, __proto__ included", async () => {
    const { key } = await uploader();
    const res = await tusCall("POST", "/v1/uploads", key, {
      "upload-length": "10",
      "upload-metadata": `kind ${btoa("image")},filename ${btoa("a.png")},__proto__ ${btoa("a")},__proto__ ${btoa("b")}`,
    });
    expect(res.status).toBe(400);
  });
});

describe("control and bidi characters", () => {
  test("a filename and any other value holding U+202E or CR LF come back without them from HEAD and GET, and the file keeps the clean name", async () => {
    const { key } = await uploader("pro");
    const bytes = await png(8, 8);
    const path = await create(key, bytes.length, { kind: "image", filename: "photo\u202Egnp.exe\r\nX-Injected: 1.png", note: "line\r\nbreak\u2066" });
    const head = await tusCall("HEAD", path, key);
    expect(head.status).toBe(200);
    const values = new Map(echoed(head.headers.get("upload-metadata")));
    expect(values.get("filename")).toBe("photognp.exeX-Injected: 1.png");
    expect(values.get("note")).toBe("linebreak");
    for (const v of values.values()) expect(v).not.toMatch(UNSAFE);
    const state = await callJson("GET", path, { token: key });
    expect(state.body.data.filename).toBe("photognp.exeX-Injected: 1.png");
    const done = await patch(key, path, 0, bytes);
    expect(done.status).toBe(204);
    const image = await callJson("GET", `/v1/images/${done.headers.get("x-resource-id")}`, { token: key });
    expect(image.body.data.filename).toBe("photognp.exeX-Injected: 1.png");
  });

  test("a NUL in a value goes as the other controls do: the upload is made, the value kept without it", async () => {
    const { key } = await uploader();
    const path = await create(key, 10, { kind: "image", filename: "a\u0000.png", note: "x\u0000y" });
    const values = new Map(echoed((await tusCall("HEAD", path, key)).headers.get("upload-metadata")));
    expect(values.get("filename")).toBe("a.png");
    expect(values.get("note")).toBe("xy");
  });

  test("a tag holding one is 422 as in a form; a filename of nothing else names no file (422)", async () => {
    const { key } = await uploader();
    const post = (meta: Record<string, string>) => tusCall("POST", "/v1/uploads", key, { "upload-length": "10", "upload-metadata": metaHeader(meta) });
    const tag = await post({ kind: "image", filename: "a.png", tags: '["cat\u202E"]' });
    expect(tag.status).toBe(422);
    expect((await tag.json()).meta.path).toStartWith("body.tags");
    const name = await post({ kind: "image", filename: "\u202E\r\n\u0000" });
    expect(name.status).toBe(422);
    expect((await name.json()).meta.path).toBe("metadata.filename");
  });
});
