// No request sees or touches another user's resources (docs/security.md), swept over
// the OpenAPI document: every operation that names a user's resource in its path, and the
// batch routes that name them in their body, is sent by a stranger holding every scope
// and the largest plan, aimed at one owner's private resources, with a request that would
// succeed for the owner. Each answer refuses without revealing that the resource exists
// (404 NOT_FOUND; the playback edge's 403 for a private video without its signature), and
// the owner's resources read the same afterwards, byte for byte. A route added later that
// names a resource fails the coverage test until it has its line here.
//
// Before any of that, the credential: every guarded operation sent without one, or with a
// key that lacks its scope, answers 401 or 403 whatever is wrong with its path and body,
// so a caller who may not act learns nothing of how its input would have fared.
import { hashOf, PNG, storedFile } from "../kbs/file-fixtures.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { addPasskey } from "../helpers/webauthn.ts";
import { doc, METHODS } from "../helpers/openapi-doc.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { openTestBranch } from "../branches/fixtures.ts";
import { uploadedDoc } from "../documents/fixtures.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { newKb, pushed, upsert } from "../kbs/fixtures.ts";
import { oauthApp } from "../oauth/flow.ts";
import { browserOf, oidcConfig, oidcProvider, personAt } from "../oidc/flow.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";
import { exportWorker, runExport } from "../backup/fixtures.ts";
import { jsonBytes, manifestOf, postArchive, rawZip } from "../migration/fixtures.ts";

setDefaultTimeout(60_000);

const V2 = { "service-sync-version": "2" };
const o = await oauthApp();
const owner = await makeUser({ plan: "pro_plus" });
const stranger = await makeUser({ plan: "pro_plus" });

// The owner's private resources, one of each kind a path can name.
expect((await callJson("PATCH", "/v1/user/me", { token: owner.jwt, json: { docVersioningEnabled: true } })).status).toBe(200);
const image = await uploaded(owner.jwt, await png(), { is_public: "false" });
const loose = await uploadedDoc(owner.jwt, { isPublic: false });
const kb = await newKb(owner.jwt);
const first = await pushed(owner.jwt, kb.id, [upsert("a.md", "first\n")]);
await pushed(owner.jwt, kb.id, [upsert("a.md", "second\n", first.applied[0]!.updatedAt)]);
const kbDocId = first.applied[0]!.id;
const fileHash = await storedFile(owner.jwt, kb.id, PNG, "f.png");
const revId = (await callJson("GET", `/v1/docs/${kbDocId}/revisions`, { token: owner.jwt })).body.data.revisions[0].id as string;
const branchId = (await openTestBranch(owner.id, kb.id, "a.md", "branch\n")).id;
const key = await makeKey(owner);
await o.tokensFor(owner);
const grantId = (await callJson("GET", "/v1/user/me/oauth-grants", { token: owner.jwt })).body.data.items[0].id as string;
// The device sign-in above told the owner.
const notificationId = (await callJson("GET", "/v1/notifications", { token: owner.jwt })).body.data.items[0].id as string;
const video = await storedVideo(owner.id, { isPublic: false });
// An image of the owner's in the trash: what the trash's routes name.
const trashed = await uploaded(owner.jwt, await png(), { is_public: "false" });
expect((await call("DELETE", `/v1/images/${trashed.id}`, { token: owner.jwt })).status).toBe(204);
const audio = (await uploadAudio(owner.jwt, await fixture("mp3-cover"), "a.mp3", { is_public: "false" })).body.data;
const TUS = { "tus-resumable": "1.0.0" };
const upload = (
  await call("POST", "/v1/uploads", {
    token: owner.jwt,
    headers: { ...TUS, "upload-length": "100", "upload-metadata": `kind ${btoa("video")},filename ${btoa("v.mp4")}` },
  })
).headers.get("location")!;
// A signature the stranger holds rightly: for a video of their own.
const theirVideo = await storedVideo(stranger.id, { isPublic: false });
const theirSignature = new URL((await callJson("POST", `/v1/videos/${theirVideo.id}/sign`, { token: stranger.jwt, json: {} })).body.data.url).pathname.split(
  "/",
)[4]!;
// A ready export of each: the stranger holds a signed download URL of their own.
const exporter = await exportWorker();
const ownersExport = await runExport(exporter, owner.jwt, (await callJson("POST", "/v1/backup", { token: owner.jwt, json: {} })).body.data.id);
const theirExport = await runExport(exporter, stranger.jwt, (await callJson("POST", "/v1/backup", { token: stranger.jwt, json: {} })).body.data.id);
const theirDownload = new URL(theirExport.downloadUrl).search;
// A collection of the owner's media, and one of the stranger's own to aim the owner's items at.
const collection = (
  await callJson("POST", "/v1/collections", {
    token: owner.jwt,
    json: {
      title: "Private",
      items: [
        { kind: "image", id: image.id },
        { kind: "video", id: video.id },
        { kind: "audio", id: audio.id },
      ],
    },
  })
).body.data as { id: string };
const theirImage = await uploaded(stranger.jwt, await png());
const theirCollection = (await callJson("POST", "/v1/collections", { token: stranger.jwt, json: { title: "Theirs" } })).body.data as { id: string };
const ownersItems = [
  { kind: "image", id: image.id },
  { kind: "video", id: video.id },
  { kind: "audio", id: audio.id },
];
const ownersSession = (await callJson("GET", "/v1/user/me/sessions", { token: owner.jwt })).body.data.items[0].id as string;
const ownersPasskey = await addPasskey(owner.jwt);
const provider = await oidcProvider();
// An identity of the owner's at an OpenID provider, linked by signing in through it (a node set up for it, on the same parts).
const linker = browserOf(await oauthApp(oidcConfig(provider)), provider);
expect((await linker.callback(await linker.toCallback(personAt(provider, owner.email, true).sub))).status).toBe(303);
const identityId = (await callJson("GET", "/v1/user/me/identities", { token: owner.jwt })).body.data.items[0].id as string;
// An import of the owner's (queued: no worker runs it here).
const ownersImport = (await postArchive(owner.jwt, rawZip([{ name: "manifest.json", bytes: jsonBytes(manifestOf([])) }]))).body.data;
// A link of the owner's to a document: its token opens that document's page, and no media.
const share = (await callJson("POST", "/v1/shares", { token: owner.jwt, json: { target: { kind: "document", id: loose.id } } })).body.data;
const shareToken = new URL(share.url).pathname.split("/").at(-1)!;
// A webhook endpoint of the owner's, with one delivery in its log.
const endpoint = (
  await callJson("POST", "/v1/webhooks/endpoints", { token: owner.jwt, json: { url: "https://hooks.example.com/owner", events: ["video.ready"] } })
).body.data as { id: string };
expect((await callJson("POST", `/v1/webhooks/endpoints/${endpoint.id}/test`, { token: owner.jwt })).status).toBe(202);
// A site of the owner's KB: the stranger cannot read or unpublish it through the API. (The
// site itself is public by design: its pages are probed by a slug that names no site.)
const site = (await callJson("POST", "/v1/published-pages", { token: owner.jwt, json: { kbId: kb.id } })).body.data;
const edgePath = (url: string) => new URL(url).pathname.replace(/^.*?\/media\//, "/media/");

interface Probe {
  path: string;
  json?: unknown;
  form?: FormData;
  /** A form's text. */
  body?: string;
  /** Raw bytes (a KB file's). */
  bytes?: Uint8Array;
  headers?: Record<string, string>;
  /** An HTML page: its status alone is checked. */
  html?: true;
  /** What the refusal is: 404 NOT_FOUND unless said. */
  status?: number;
  /** Its code, when the status alone does not say it. */
  code?: string;
  /** For the batch routes, which answer 200 with a result per id. */
  check?(body: any): void;
}

const thumbnail = async () => {
  const form = new FormData();
  form.append("file", new Blob([(await png()) as BlobPart]), "t.png");
  return form;
};

/** Every operation that names a resource, as `METHOD /path/{param}`, and the stranger's request. */
const PROBES: Record<string, () => Probe | Promise<Probe>> = {
  "DELETE /v1/api-keys/{id}": () => ({ path: `/v1/api-keys/${key.id}` }),
  "DELETE /v1/user/me/sessions/{id}": () => ({ path: `/v1/user/me/sessions/${ownersSession}` }),
  "PATCH /v1/user/me/passkeys/{id}": () => ({ path: `/v1/user/me/passkeys/${ownersPasskey.id}`, json: { name: "mine now" } }),
  "DELETE /v1/user/me/passkeys/{id}": () => ({ path: `/v1/user/me/passkeys/${ownersPasskey.id}`, json: { password: stranger.password } }),
  "DELETE /v1/user/me/identities/{id}": () => ({ path: `/v1/user/me/identities/${identityId}` }),
  "GET /v1/backup/{id}": () => ({ path: `/v1/backup/${ownersExport.id}` }),
  "DELETE /v1/backup/{id}": () => ({ path: `/v1/backup/${ownersExport.id}` }),
  "GET /v1/migration/{id}": () => ({ path: `/v1/migration/${ownersImport.id}` }),
  // Their own export's signature does not open the owner's archive.
  "GET /v1/backup/{id}/archive": () => ({ path: `/v1/backup/${ownersExport.id}/archive${theirDownload}` }),
  "GET /v1/images/{id}": () => ({ path: `/v1/images/${image.id}` }),
  "PATCH /v1/images/{id}": () => ({ path: `/v1/images/${image.id}`, json: { is_public: true } }),
  "DELETE /v1/images/{id}": () => ({ path: `/v1/images/${image.id}` }),
  "GET /v1/docs/{id}": () => ({ path: `/v1/docs/${loose.id}` }),
  "PATCH /v1/docs/{id}": () => ({ path: `/v1/docs/${loose.id}`, json: { isPublic: true } }),
  "DELETE /v1/docs/{id}": () => ({ path: `/v1/docs/${loose.id}` }),
  "GET /v1/docs/{id}/raw": () => ({ path: `/v1/docs/${loose.id}/raw` }),
  "GET /v1/docs/{id}/render": () => ({ path: `/v1/docs/${loose.id}/render?format=pdf` }),
  "GET /v1/docs/{id}/revisions": () => ({ path: `/v1/docs/${kbDocId}/revisions` }),
  "GET /v1/docs/{id}/revisions/{revId}": () => ({ path: `/v1/docs/${kbDocId}/revisions/${revId}` }),
  "POST /v1/docs/{id}/revisions/{revId}/restore": () => ({ path: `/v1/docs/${kbDocId}/revisions/${revId}/restore` }),
  "GET /v1/kbs/{id}": () => ({ path: `/v1/kbs/${kb.id}` }),
  "PATCH /v1/kbs/{id}": () => ({ path: `/v1/kbs/${kb.id}`, json: { name: "taken over" } }),
  "DELETE /v1/kbs/{id}": () => ({ path: `/v1/kbs/${kb.id}?cascade=true` }),
  "GET /v1/kbs/{id}/manifest": () => ({ path: `/v1/kbs/${kb.id}/manifest`, headers: V2 }),
  "GET /v1/kbs/{id}/raw": () => ({ path: `/v1/kbs/${kb.id}/raw?path=a.md` }),
  "POST /v1/kbs/{id}/sync": () => ({ path: `/v1/kbs/${kb.id}/sync`, headers: V2, json: { ops: [upsert("b.md", "planted\n")] } }),
  "GET /v1/kbs/{id}/conflicts": () => ({ path: `/v1/kbs/${kb.id}/conflicts` }),
  "GET /v1/kbs/{id}/conflicts/{branchId}": () => ({ path: `/v1/kbs/${kb.id}/conflicts/${branchId}` }),
  "DELETE /v1/kbs/{id}/conflicts/{branchId}": () => ({ path: `/v1/kbs/${kb.id}/conflicts/${branchId}` }),
  "POST /v1/kbs/{id}/conflicts/{branchId}/accept": () => ({ path: `/v1/kbs/${kb.id}/conflicts/${branchId}/accept` }),
  "GET /v1/kbs/{id}/tree": () => ({ path: `/v1/kbs/${kb.id}/tree` }),
  "GET /v1/kbs/{id}/backlinks": () => ({ path: `/v1/kbs/${kb.id}/backlinks?path=a.md` }),
  "GET /v1/kbs/{id}/files/{sha256}": () => ({ path: `/v1/kbs/${kb.id}/files/${fileHash}` }),
  "HEAD /v1/kbs/{id}/files/{sha256}": () => ({ path: `/v1/kbs/${kb.id}/files/${fileHash}` }),
  "PUT /v1/kbs/{id}/files/{sha256}": () => {
    const bytes = new TextEncoder().encode("planted bytes");
    return { path: `/v1/kbs/${kb.id}/files/${hashOf(bytes)}`, bytes, headers: { "content-length": String(bytes.length) } };
  },
  "POST /v1/kbs/{id}/read": () => ({ path: `/v1/kbs/${kb.id}/read`, json: { paths: ["a.md"] } }),
  "POST /v1/kbs/{id}/edit": () => ({ path: `/v1/kbs/${kb.id}/edit`, json: { path: "a.md", oldText: "second", newText: "planted" } }),
  "DELETE /v1/user/me/oauth-grants/{id}": () => ({ path: `/v1/user/me/oauth-grants/${grantId}` }),
  "POST /v1/notifications/{id}/read": () => ({ path: `/v1/notifications/${notificationId}/read` }),
  "GET /v1/videos/{id}": () => ({ path: `/v1/videos/${video.id}` }),
  "PATCH /v1/videos/{id}": () => ({ path: `/v1/videos/${video.id}`, json: { isPublic: true } }),
  "DELETE /v1/videos/{id}": () => ({ path: `/v1/videos/${video.id}` }),
  "GET /v1/videos/{id}/status": () => ({ path: `/v1/videos/${video.id}/status` }),
  "POST /v1/videos/{id}/sign": () => ({ path: `/v1/videos/${video.id}/sign`, json: {} }),
  "POST /v1/videos/{id}/thumbnail": async () => ({ path: `/v1/videos/${video.id}/thumbnail`, form: await thumbnail() }),
  "DELETE /v1/videos/{id}/thumbnail": () => ({ path: `/v1/videos/${video.id}/thumbnail` }),
  "GET /v1/videos/{id}/captions": () => ({ path: `/v1/videos/${video.id}/captions` }),
  "PUT /v1/videos/{id}/captions/{language}": () => ({
    path: `/v1/videos/${video.id}/captions/en`,
    bytes: new TextEncoder().encode("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\ntaken over\n"),
    headers: { "content-type": "text/vtt" },
  }),
  "DELETE /v1/videos/{id}/captions/{language}": () => ({ path: `/v1/videos/${video.id}/captions/en` }),
  "POST /v1/trash/{id}/restore": () => ({ path: `/v1/trash/${trashed.id}/restore` }),
  "DELETE /v1/trash/{id}": () => ({ path: `/v1/trash/${trashed.id}` }),
  "GET /v1/audio/{id}": () => ({ path: `/v1/audio/${audio.id}` }),
  "PATCH /v1/audio/{id}": () => ({ path: `/v1/audio/${audio.id}`, json: { isPublic: true } }),
  "DELETE /v1/audio/{id}": () => ({ path: `/v1/audio/${audio.id}` }),
  "GET /v1/webhooks/endpoints/{id}": () => ({ path: `/v1/webhooks/endpoints/${endpoint.id}` }),
  "PATCH /v1/webhooks/endpoints/{id}": () => ({ path: `/v1/webhooks/endpoints/${endpoint.id}`, json: { url: "https://taken.example.com/" } }),
  "DELETE /v1/webhooks/endpoints/{id}": () => ({ path: `/v1/webhooks/endpoints/${endpoint.id}` }),
  "POST /v1/webhooks/endpoints/{id}/rotate-secret": () => ({ path: `/v1/webhooks/endpoints/${endpoint.id}/rotate-secret` }),
  "GET /v1/webhooks/endpoints/{id}/deliveries": () => ({ path: `/v1/webhooks/endpoints/${endpoint.id}/deliveries` }),
  "POST /v1/webhooks/endpoints/{id}/test": () => ({ path: `/v1/webhooks/endpoints/${endpoint.id}/test` }),
  "GET /v1/collections/{id}": () => ({ path: `/v1/collections/${collection.id}` }),
  "PATCH /v1/collections/{id}": () => ({ path: `/v1/collections/${collection.id}`, json: { title: "taken over" } }),
  "DELETE /v1/collections/{id}": () => ({ path: `/v1/collections/${collection.id}` }),
  "GET /v1/collections/{id}/items": () => ({ path: `/v1/collections/${collection.id}/items` }),
  "POST /v1/collections/{id}/items": () => ({ path: `/v1/collections/${collection.id}/items`, json: { items: [{ kind: "image", id: theirImage.id }] } }),
  "DELETE /v1/collections/{id}/items": () => ({ path: `/v1/collections/${collection.id}/items`, json: { items: ownersItems } }),
  "PUT /v1/collections/{id}/order": () => ({ path: `/v1/collections/${collection.id}/order`, json: { items: [...ownersItems].reverse() } }),
  "HEAD /v1/uploads/{id}": () => ({ path: upload, headers: TUS }),
  "PATCH /v1/uploads/{id}": () => ({ path: upload, headers: { ...TUS, "content-type": "application/offset+octet-stream", "upload-offset": "0" } }),
  "DELETE /v1/uploads/{id}": () => ({ path: upload, headers: TUS }),
  "GET /v1/uploads/{id}": () => ({ path: upload }),
  "GET /v1/shares/{id}": () => ({ path: `/v1/shares/${share.id}` }),
  "PATCH /v1/shares/{id}": () => ({ path: `/v1/shares/${share.id}`, json: { password: "taken over" } }),
  "DELETE /v1/shares/{id}": () => ({ path: `/v1/shares/${share.id}` }),
  "GET /v1/published-pages/{id}": () => ({ path: `/v1/published-pages/${site.id}` }),
  "DELETE /v1/published-pages/{id}": () => ({ path: `/v1/published-pages/${site.id}` }),
  "GET /p/{slug}": () => ({ path: `/p/${site.id.toLowerCase()}`, html: true }),
  "GET /p/{slug}/{path}": () => ({ path: `/p/${site.id.toLowerCase()}/a`, html: true }),
  "GET /p/{slug}/{folder}/{path}": () => ({ path: `/p/${site.id.toLowerCase()}/f/a`, html: true }),
  "GET /p/{slug}/{folder}/{sub}/{path}": () => ({ path: `/p/${site.id.toLowerCase()}/f/s/a`, html: true }),
  "GET /p/{slug}/{folder}/{sub}/{sub2}/{path}": () => ({ path: `/p/${site.id.toLowerCase()}/f/s/t/a`, html: true }),
  "GET /p/{slug}/{folder}/{sub}/{sub2}/{sub3}/{path}": () => ({ path: `/p/${site.id.toLowerCase()}/f/s/t/u/a`, html: true }),
  // A link's page by the link's id (its token is not guessable): no such link.
  "GET /s/{token}": () => ({ path: `/s/${share.id}`, html: true }),
  "POST /s/{token}": () => ({
    path: `/s/${share.id}`,
    html: true,
    body: "password=x",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  }),
  // Through the owner's link to a document, the owner's KB note and file: not in a shared KB folder.
  "GET /s/{token}/d/{id}": () => ({ path: `/s/${shareToken}/d/${kbDocId}`, html: true }),
  "GET /s/{token}/f/{id}": () => ({ path: `/s/${shareToken}/f/${kbDocId}` }),
  // Through the owner's link to a document, the owner's private media: not the link's item.
  "GET /s/{token}/m/{file}": () => ({ path: `/s/${shareToken}/m/${new URL(image.url).pathname.split("/").at(-1)}` }),
  "GET /s/{token}/m/{kind}/{file}": () => ({ path: `/s/${shareToken}/m${edgePath(audio.url).slice("/media".length)}` }),
  "GET /s/{token}/m/{kind}/{id}/{file}": () => ({ path: `/s/${shareToken}/m/v/${video.id}/master.m3u8` }),
  "GET /s/{token}/m/{kind}/{id}/{dir}/{file}": () => ({ path: `/s/${shareToken}/m/v/${video.id}/720p/index.m3u8` }),
  "GET /media/{file}": () => ({ path: edgePath(image.url) }),
  "HEAD /media/{file}": () => ({ path: edgePath(image.url) }),
  "GET /media/a/{file}": () => ({ path: edgePath(audio.url) }),
  "HEAD /media/a/{file}": () => ({ path: edgePath(audio.url) }),
  "GET /media/a/{id}/{file}": () => ({ path: edgePath(audio.thumbnailUrl) }),
  "HEAD /media/a/{id}/{file}": () => ({ path: edgePath(audio.thumbnailUrl) }),
  "GET /media/v/{id}/{file}": () => ({ path: `/media/v/${video.id}/master.m3u8`, status: 403 }),
  "HEAD /media/v/{id}/{file}": () => ({ path: `/media/v/${video.id}/master.m3u8`, status: 403 }),
  "GET /media/v/{id}/{dir}/{file}": () => ({ path: `/media/v/${video.id}/720p/index.m3u8`, status: 403 }),
  "HEAD /media/v/{id}/{dir}/{file}": () => ({ path: `/media/v/${video.id}/720p/index.m3u8`, status: 403 }),
  "GET /media/v/{id}/{signature}/{rendition}/{file}": () => ({ path: `/media/v/${video.id}/${theirSignature}/720p/index.m3u8`, status: 403 }),
  "HEAD /media/v/{id}/{signature}/{rendition}/{file}": () => ({ path: `/media/v/${video.id}/${theirSignature}/720p/index.m3u8`, status: 403 }),
};

/** A batch delete naming the owner's ids: 200, each id NOT_FOUND (and kept: the owner's view below). */
const batchDelete = (path: string, ids: string[]): Probe => ({
  path,
  json: { ids },
  status: 200,
  check: (b) => expect(b.data.results).toEqual(ids.map((id) => ({ id, deleted: false, reason: "NOT_FOUND" }))),
});

/** The routes that name resources in their body, by method and what they try. */
const BATCHES: Record<string, () => Probe> = {
  "POST /v1/docs into the owner's KB": () => ({
    path: "/v1/docs",
    json: { filename: "a.md", content: "planted\n", kbId: kb.id, relativePath: "a.md" },
  }),
  "DELETE /v1/docs": () => batchDelete("/v1/docs", [loose.id, kbDocId]),
  "DELETE /v1/media": () => batchDelete("/v1/media", [video.id, audio.id]),
  "GET /v1/trash": () => ({ path: "/v1/trash", status: 200, check: (b) => expect(b.data.items).toEqual([]) }),
  "DELETE /v1/trash": () => ({ path: "/v1/trash", status: 200, check: (b) => expect(b.data).toEqual({ purged: 0 }) }),
  "POST /v1/docs/raw:batch": () => ({
    path: "/v1/docs/raw:batch",
    json: { ids: [loose.id, kbDocId] },
    status: 200,
    check: (b) => {
      expect(b.data.docs).toEqual([]);
      expect(b.data.failed).toEqual([loose.id, kbDocId].map((id) => ({ id, reason: "NOT_FOUND" })));
    },
  }),
  // The owner's media named in the stranger's own collection: 404, as if absent.
  "POST /v1/collections with the owner's items": () => ({ path: "/v1/collections", json: { title: "Taken", items: ownersItems } }),
  "POST /v1/collections/{id}/items of the owner's items into their own": () => ({
    path: `/v1/collections/${theirCollection.id}/items`,
    json: { items: ownersItems },
  }),
  "PATCH /v1/collections/{id} with the owner's item as their cover": () => ({
    path: `/v1/collections/${theirCollection.id}`,
    json: { cover: ownersItems[0] },
    status: 409,
    code: "COLLECTION_COVER_NOT_ITEM",
  }),
  "GET /v1/docs?kbId= of the owner's KB": () => ({ path: `/v1/docs?kbId=${kb.id}`, status: 200, check: (b) => expect(b.data.items).toEqual([]) }),
  "POST /v1/published-pages of the owner's KB": () => ({ path: "/v1/published-pages", json: { kbId: kb.id } }),
  "GET /v1/docs/search?kbId= of the owner's KB": () => ({ path: `/v1/docs/search?q=second&kbId=${kb.id}` }),
  "GET /v1/docs/search for the owner's words": () => ({ path: "/v1/docs/search?q=second", status: 200, check: (b) => expect(b.data.items).toEqual([]) }),
};

/** What the owner reads of everything above: it must not change while the stranger tries. */
async function ownersView(): Promise<{ path: string; status: number; body: string }[]> {
  const reads = [
    `/v1/images/${image.id}`,
    `/v1/docs/${loose.id}`,
    `/v1/docs/${loose.id}/raw`,
    `/v1/kbs/${kb.id}`,
    `/v1/kbs/${kb.id}/raw?path=a.md`,
    `/v1/kbs/${kb.id}/files/${fileHash}`,
    `/v1/docs?kbId=${kb.id}`,
    `/v1/docs/${kbDocId}/revisions`,
    `/v1/kbs/${kb.id}/conflicts`,
    "/v1/api-keys",
    "/v1/user/me/oauth-grants",
    "/v1/user/me/sessions",
    "/v1/user/me/passkeys",
    "/v1/user/me/identities",
    "/v1/notifications",
    `/v1/videos/${video.id}`,
    `/v1/videos/${video.id}/status`,
    `/v1/audio/${audio.id}`,
    `/v1/backup/${ownersExport.id}`,
    `/v1/migration/${ownersImport.id}`,
    `/v1/shares/${share.id}`,
    `/v1/published-pages/${site.id}`,
    "/v1/media",
    "/v1/trash",
    `/v1/collections/${collection.id}`,
    `/v1/collections/${collection.id}/items`,
    `/v1/webhooks/endpoints/${endpoint.id}`,
    `/v1/webhooks/endpoints/${endpoint.id}/deliveries`,
    upload,
  ];
  return Promise.all(
    reads.map(async (path) => {
      const res = await call("GET", path, { token: owner.jwt });
      return { path, status: res.status, body: await res.text() };
    }),
  );
}

const entries = Object.entries(doc.paths as Record<string, Record<string, Record<string, any>>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([m]) => METHODS.includes(m))
    .map(([m, op]) => ({ name: `${m.toUpperCase()} ${path}`, method: m.toUpperCase(), path, op })),
);
const operations = entries.map((e) => e.name);
/** The operations that name a resource in their path, but the admin's (any user's, by design) and the providers' callbacks. */
const named = operations.filter((op) => op.includes("{") && !/ \/(v1\/admin|webhooks)\//.test(op));

test("every operation that names a resource in its path has its probe here, and no probe is stale", () => {
  expect(Object.keys(PROBES).sort()).toEqual(named.sort());
});

describe("a stranger with every scope is refused every resource of another user, and changes nothing", () => {
  const before = ownersView();

  for (const [name, make] of Object.entries({ ...PROBES, ...BATCHES })) {
    test(name, async () => {
      const method = name.split(" ")[0]!;
      const p = await make();
      const opts = { token: stranger.jwt, json: p.json, body: p.body ?? p.form ?? (p.bytes as Uint8Array<ArrayBuffer> | undefined), headers: p.headers };
      if (p.html) {
        expect((await call(method, p.path, opts)).status).toBe(p.status ?? 404);
        return;
      }
      // A HEAD answer may have no body at all (the tus routes'): read as JSON only when it has one.
      const res = method === "HEAD" ? { status: (await call(method, p.path, opts)).status, body: undefined } : await callJson(method, p.path, opts);
      // A HEAD answer has no body to name its code.
      const code = method === "HEAD" ? undefined : res.body?.code;
      const want = p.status ?? 404;
      expect({ status: res.status, code }).toEqual({
        status: want,
        code: p.code ?? (want === 200 || method === "HEAD" ? undefined : want === 403 ? "FORBIDDEN" : "NOT_FOUND"),
      });
      p.check?.(res.body);
    });
  }

  test("the owner reads everything as it was", async () => {
    const was = await before;
    expect(was.filter((r) => r.status !== 200)).toEqual([]);
    expect(await ownersView()).toEqual(was);
  });
});

describe("the credential is checked before the input", () => {
  // Path values no route accepts, and a body that is not even JSON.
  const malformed = (path: string) => path.replace(/\{\w+\}/g, "not-an-id!");
  const badBody = (method: string) => (method === "GET" ? {} : { body: "{not json", headers: { "content-type": "application/json" } });
  const guarded = entries.filter((e) => e.op["x-required-scope"] && e.method !== "HEAD");

  test("without a credential every guarded operation is 401 UNAUTHORIZED, whatever its path and body", async () => {
    // Those that anonymous callers may read (public videos, audio) validate as usual.
    const closed = guarded.filter((e) => !(e.op.security as object[]).some((alt) => Object.keys(alt).length === 0));
    const answers = await Promise.all(
      closed.map(async (e) => {
        const res = await callJson(e.method, malformed(e.path), badBody(e.method));
        return { op: e.name, status: res.status, code: res.body?.code };
      }),
    );
    expect(answers.filter((a) => a.status !== 401 || a.code !== "UNAUTHORIZED")).toEqual([]);
    expect(answers.length).toBeGreaterThan(50);
  });

  test("with a key lacking the operation's scope it is 403, whatever its path and body", async () => {
    const { key: narrow } = await makeKey(stranger, ["usage.read"]);
    const answers = await Promise.all(
      guarded
        .filter((e) => e.op["x-required-scope"] !== "usage.read")
        .map(async (e) => {
          const res = await callJson(e.method, malformed(e.path), { token: narrow, ...badBody(e.method) });
          return { op: e.name, status: res.status, code: res.body?.code };
        }),
    );
    expect(answers.filter((a) => a.status !== 403 || a.code !== "FORBIDDEN")).toEqual([]);
  });
});
