// rewriteImages: inline data: images stored through the images feature, identical ones
// once, broken ones reported and left as they were, only the URL's span replaced; the
// CDN host allow-list; images made by rewriting outlive their document.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ledger } from "../../src/modules/usage/ledger.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { edgeGet, png } from "../images/fixtures.ts";
import { dataUri, postDoc, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const pic = await png(12, 10);
const other = await png(14, 10);
const rawText = async (token: string, id: string) => await (await call("GET", `/v1/docs/${id}/raw`, { token })).text();

describe("rewriteImages", () => {
  test("3 identical and 1 broken inline image: rewrittenCount 1, failedCount 1, the broken one's text left as it was, every other byte kept", async () => {
    const { user, key } = await makeClient();
    const good = dataUri("image/png", pic);
    const broken = "data:image/png;base64,AAAAAAAAAAAA";
    const content = [
      "---\ntitle: Pics\n---",
      `Intro *text*  \r\nwith ![one](${good} "a title") and ![two](<${good}>)`,
      `| t | ![three](${good}) |\n|---|---|`,
      `![broken](${broken})`,
      "Tail ü 你好\n",
    ].join("\n\n");
    const res = await postDoc(key, { filename: "pics.md", content, rewriteImages: true });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ imageCount: 4, rewrittenCount: 1, failedCount: 1, warnings: [] });
    expect(res.body.data.failures).toEqual([{ index: 3, reason: "INVALID_FILE_TYPE", message: expect.any(String) }]);

    const text = await rawText(key, res.body.data.id);
    const images = (await callJson("GET", "/v1/images", { token: key })).body.data.items;
    expect(images.length).toBe(1);
    const url = images[0].url;
    expect(text).toBe(content.replaceAll(good, url));
    expect(text).toContain(broken);
    expect((await edgeGet(url)).status).toBe(200);
    expect(res.body.data.sizeBytes).toBe(Buffer.byteLength(text));

    const { key: usageKey } = await makeKey(user, ["usage.read"]);
    const usage = await usageOf(usageKey);
    // The document's bytes plus the image's (original and WebP), one upload counted.
    expect(usage.image.storage.used).toBeGreaterThan(res.body.data.sizeBytes + pic.length);
    expect(usage.uploads.day.used).toBe(1);
  });

  test("reference-style images, several image types, and other data: URIs left alone with a warning", async () => {
    const { key } = await makeClient();
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4"/></svg>',
    );
    const content = `![a][ref]\n\n![b][ref]\n\n![c](${dataUri("image/svg+xml", svg)})\n\n![d](data:text/plain;base64,aGk=)\n\n[ref]: ${dataUri("image/png", other)}\n`;
    const res = await postDoc(key, { filename: "a.md", content, rewriteImages: true });
    expect(res.body.data).toMatchObject({ imageCount: 4, rewrittenCount: 2, failedCount: 0 });
    expect(res.body.data.warnings).toEqual([{ index: 3, reason: "SKIPPED", message: expect.any(String) }]);
    const text = await rawText(key, res.body.data.id);
    expect(text).toContain("data:text/plain;base64,aGk=");
    expect(text).not.toContain("data:image");
    const svgItem = (await callJson("GET", "/v1/images", { token: key })).body.data.items.find((i: { url: string }) => i.url.endsWith(".svg"));
    const served = await (await edgeGet(svgItem.url)).text();
    expect(served).not.toContain("script");
  });

  test("without rewriteImages inline images stay and are warned about; nothing is uploaded", async () => {
    const { key } = await makeClient();
    const content = `![x](${dataUri("image/png", pic)})\n`;
    const res = await postDoc(key, { filename: "a.md", content });
    expect(res.body.data).toMatchObject({ imageCount: 1, rewrittenCount: 0, failedCount: 0 });
    expect(res.body.data.warnings[0].reason).toBe("SKIPPED");
    expect(await rawText(key, res.body.data.id)).toBe(content);
    expect((await callJson("GET", "/v1/images", { token: key })).body.data.total).toBe(0);
  });

  test("a refusal after images were made stores nothing: no image, no document, nothing counted", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    // Room for the text, not for the text and its image.
    const limit = deps.plans.trial.imageStorageBytes;
    await ledger.add(deps.db, [{ userId: user.id, dimension: "img_storage", period: "total", amount: limit - 200 }]);
    const res = await postDoc(key, { filename: "a.md", content: `![x](${dataUri("image/png", pic)})\n`, rewriteImages: true });
    expect(res.status).toBe(403);
    expect(res.body.meta.type).toBe("img_storage");
    expect((await callJson("GET", "/v1/images", { token: key })).body.data.total).toBe(0);
    const keys: string[] = [];
    for await (const o of deps.storage.list(`images/${user.id}/`)) keys.push(o.key);
    expect(keys).toEqual([]);
    const usage = await usageOf((await makeKey(user, ["usage.read"])).key);
    expect(usage.doc.count.used).toBe(0);
    expect(usage.uploads.day.used).toBe(0);
  });

  test("images made by rewriting belong to the owner and survive their document's deletion", async () => {
    const { key } = await makeClient();
    const res = await postDoc(key, { filename: "a.md", content: `![x](${dataUri("image/png", pic)})\n`, rewriteImages: true });
    const [image] = (await callJson("GET", "/v1/images", { token: key })).body.data.items;
    expect((await call("DELETE", `/v1/docs/${res.body.data.id}`, { token: key })).status).toBe(204);
    expect((await callJson("GET", `/v1/images/${image.id}`, { token: key })).status).toBe(200);
    expect((await edgeGet(image.url)).status).toBe(200);
  });
});

describe("CDN host allow-list", () => {
  test("admins read and replace it; listed hosts are counted without a warning, others are warned about", async () => {
    const admin = await makeUser({ isAdmin: true });
    const put = await callJson("PUT", "/v1/admin/doc-cdn-hosts", {
      token: admin.jwt,
      json: { hosts: ["cdn.example.com", ".Images.Example.NET", "cdn.example.com"] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.hosts).toEqual([".images.example.net", "cdn.example.com"]);
    expect((await callJson("GET", "/v1/admin/doc-cdn-hosts", { token: admin.jwt })).body.data.hosts).toEqual([".images.example.net", "cdn.example.com"]);

    const { key } = await makeClient();
    const content = [
      "![a](https://cdn.example.com/a.png)",
      "![b](https://x.images.example.net/b.png)",
      "![c](https://images.example.net/c.png)",
      "![d](https://evil.example.org/d.png)",
      "![e](./local.png)",
    ].join("\n\n");
    const res = await postDoc(key, { filename: "a.md", content });
    expect(res.body.data.imageCount).toBe(5);
    expect(res.body.data.warnings).toEqual([{ index: 3, reason: "EXTERNAL_IMAGE", message: expect.any(String) }]);
    await callJson("PUT", "/v1/admin/doc-cdn-hosts", { token: admin.jwt, json: { hosts: [] } });
  });

  test("a pattern with a protocol, path, port or illegal characters is 422 DOC_INVALID_PATTERN and the list is unchanged", async () => {
    const admin = await makeUser({ isAdmin: true });
    const before = (await callJson("GET", "/v1/admin/doc-cdn-hosts", { token: admin.jwt })).body.data.hosts;
    for (const bad of [
      "https://cdn.example.com",
      "cdn.example.com/path",
      "cdn.example.com:443",
      "*.example.com",
      "exa mple.com",
      "..example.com",
      "",
      "-a.com",
    ]) {
      const res = await callJson("PUT", "/v1/admin/doc-cdn-hosts", { token: admin.jwt, json: { hosts: ["ok.example.com", bad] } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("DOC_INVALID_PATTERN");
      expect(res.body.meta).toMatchObject({ index: 1, pattern: bad });
    }
    expect((await callJson("GET", "/v1/admin/doc-cdn-hosts", { token: admin.jwt })).body.data.hosts).toEqual(before);
  });

  test("non-admins get 403; an admin's API key may read but not change it", async () => {
    const { key } = await makeClient();
    expect((await callJson("GET", "/v1/admin/doc-cdn-hosts", { token: key })).status).toBe(403);
    const admin = await makeUser({ isAdmin: true });
    const { key: adminKey } = await makeKey(admin);
    expect((await callJson("GET", "/v1/admin/doc-cdn-hosts", { token: adminKey })).status).toBe(200);
    const res = await callJson("PUT", "/v1/admin/doc-cdn-hosts", { token: adminKey, json: { hosts: [] } });
    expect(res.status).toBe(403);
    expect(res.body.meta.required).toBe("session");
  });
});
