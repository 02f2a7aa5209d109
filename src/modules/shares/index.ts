// /v1/shares: make, list, read, change and revoke share links; and each link's anonymous
// page below CENTER_URL (/s/<token>, its password form, its media at /s/<token>/m/...).
// The pages are the center's kind of page (hidden from the API document, as the player is).
import { Elysia } from "elysia";
import { AppError } from "../../core/errors.ts";
import { type Addresses, addressesOf } from "../../http/addresses.ts";
import { readBody } from "../../http/body-limit.ts";
import { clientIp } from "../../http/client-ip.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { OWN_PATHS } from "../../http/openapi.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { centerStylePath, embedScriptPath } from "../center/public.ts";
import type { VouchedEdge } from "../edge/public.ts";
import { openShare, passwordCookie, passwordMatches, tryPassword } from "./access.ts";
import { shareMedia } from "./media.ts";
import { CreateShareBody, ListSharesQuery, Share, SharePage, ShareParams, UpdateShareBody } from "./model.ts";
import { sharePagesDocumentation } from "./openapi.ts";
import { contentPage, gonePage, type PageAt, passwordPage } from "./page.ts";
import { kbEntryInFolder } from "../library/public.ts";
import { countView, createShare, getShare, listShares, revokeShare, shareUrl, toShare, updateShare } from "./service.ts";
import { shownTarget } from "./targets.ts";

/** A password form is a few dozen bytes. */
const FORM_MAX_BYTES = 4096;

/**
 * The page is exactly CENTER_URL/s/<token>: with a trailing slash (what /s/<token>/m/..
 * becomes once the URL is resolved) it is no route, answered as the router answers one.
 */
function exactPage(request: Request) {
  if (new URL(request.url).pathname.endsWith("/")) throw new AppError("NOT_FOUND", "no such route", { entity: "route" });
}

/**
 * The KB folder a page shows: the shared one, or `asked` (?path=) when it lies below it;
 * undefined when it does not. Null for a link to anything but a KB.
 */
function subfolder(shared: string | null, asked: string | null): string | null | undefined {
  if (shared === null) return null;
  if (asked === null || asked === "" || asked === shared) return shared;
  return shared === "" || asked.startsWith(`${shared}/`) ? asked : undefined;
}

export const sharesModule = ({ deps, guard }: RouteServices, edge: VouchedEdge) => {
  const { config } = deps;
  const fixed = config.addressesFromRequest.length === 0;
  const base = new URL(config.CENTER_URL).pathname.replace(/\/+$/, "");
  const addresses = (request: Request): Addresses => (fixed ? config : addressesOf(config, request));
  const center = (request: Request) => addresses(request).CENTER_URL;
  const pageAt = (request: Request, token: string): PageAt => {
    const a = addresses(request);
    return { addresses: a, self: shareUrl(a.CENTER_URL, token), playerScript: embedScriptPath(a.CENTER_URL), stylesheet: centerStylePath(a.CENTER_URL) };
  };
  const media = shareMedia(deps, edge);
  // Documented by hand (HTML and bytes): the generator hides them.
  const hidden = { detail: { hide: true, [OWN_PATHS]: sharePagesDocumentation(base) } };

  return (
    new Elysia({ name: "shares", detail: { tags: ["shares"] } })
      .use(sharedModels)
      .use(guard)
      .post(
        "/v1/shares",
        async ({ principal, body, request, status }) =>
          status(201, ok(toShare(center(request), deps.clock.nowMs(), await createShare(deps, principal.userId, body)))),
        {
          auth: { scope: "media.write", tier: "mutation" },
          body: CreateShareBody,
          response: { 201: Ok(Share), 404: "Error", 422: "Error" },
          detail: {
            summary: "Make a share link to an item, a KB or a KB folder",
            description:
              "`target` is `{ kind: image | video | audio | document | kb, id, path? }` (path: a KB's folder). The caller must own it, else 404. The answer's `url` is the anonymous page (CENTER_URL/s/<token>), which shows a private item too, through that link only. Optional `expiresAt` (in the future) and `password`.",
          },
        },
      )
      .get("/v1/shares", async ({ principal, query }) => ok(await listShares(deps, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 })), {
        auth: { scope: "media.read", tier: "read" },
        query: ListSharesQuery,
        response: { 200: Ok(SharePage), 400: "Error" },
        detail: { summary: "List your share links, newest first (revoked and expired ones too)" },
      })
      .get(
        "/v1/shares/:id",
        async ({ principal, params, request }) => ok(toShare(center(request), deps.clock.nowMs(), await getShare(deps.db, principal.userId, params.id))),
        {
          auth: { scope: "media.read", tier: "read" },
          params: ShareParams,
          response: { 200: Ok(Share), 404: "Error" },
          detail: { summary: "One share link, with its view count" },
        },
      )
      .patch(
        "/v1/shares/:id",
        async ({ principal, params, body, request }) =>
          ok(toShare(center(request), deps.clock.nowMs(), await updateShare(deps, principal.userId, params.id, body))),
        {
          auth: { scope: "media.write", tier: "mutation" },
          params: ShareParams,
          body: UpdateShareBody,
          response: { 200: Ok(Share), 404: "Error", 409: "Error", 422: "Error" },
          detail: { summary: "Change a link's expiry or password (null removes either); a revoked link is 409" },
        },
      )
      .delete(
        "/v1/shares/:id",
        async ({ principal, params, set }) => {
          await revokeShare(deps, principal.userId, params.id);
          set.status = 204;
        },
        {
          auth: { scope: "media.write", tier: "mutation" },
          params: ShareParams,
          response: { 204: NoContent, 404: "Error" },
          detail: { summary: "Revoke a link: its page and media stop at once, on every node; the link stays listed with revokedAt" },
        },
      )
      // The anonymous page.
      .get(
        `${base}/s/:token`,
        async ({ params, request }) => {
          exactPage(request);
          const at = pageAt(request, params.token);
          const opened = await openShare(deps, params.token, request);
          if (opened.state === "missing") return gonePage(at, 404);
          if (opened.state === "gone") return gonePage(at, 410);
          if (opened.state === "locked") return passwordPage(at, null);
          const { share } = opened;
          const folder = subfolder(share.targetKind === "kb" ? (share.targetPath ?? "") : null, new URL(request.url).searchParams.get("path"));
          if (folder === undefined) return gonePage(at, 404);
          const shown = await shownTarget(deps, share.ownerId, { kind: share.targetKind, id: share.targetId, path: folder });
          if (!shown) return gonePage(at, 404);
          if (request.method === "GET") await countView(deps.db, share.id);
          return contentPage(at, shown, share.passwordHash === null);
        },
        hidden,
      )
      // Its password form.
      .post(
        `${base}/s/:token`,
        async ({ params, request, server }) => {
          exactPage(request);
          const at = pageAt(request, params.token);
          // Read (and bounded) first: a refusal never leaves a body unread on the connection.
          const read = await readBody(request, FORM_MAX_BYTES).catch((e: unknown) => {
            if (e instanceof AppError && e.code === "FILE_TOO_LARGE") return e;
            throw e;
          });
          if (read instanceof AppError)
            return passwordPage(at, "This form is far larger than the page sends. Open the page again and send it from there.", 400, read.headers);
          const form = new URLSearchParams(new TextDecoder().decode(read));
          const opened = await openShare(deps, params.token, request);
          if (opened.state === "missing") return gonePage(at, 404);
          if (opened.state === "gone") return gonePage(at, 410);
          const see = { status: 303, headers: { location: at.self, "cache-control": "no-store" } };
          if (opened.state === "open") return new Response(null, see);
          const { share } = opened;
          const wait = await tryPassword(deps, share, clientIp(request, server, config.TRUST_PROXY));
          if (wait !== null)
            return passwordPage(at, "Too many tries. Wait a few minutes and try again.", 429, { "retry-after": String(Math.ceil(wait / 1000)) });
          const password = form.get("password") ?? "";
          if (!password || !(await passwordMatches(share, password))) return passwordPage(at, "That password is not right.");
          const path = new URL(at.self).pathname;
          return new Response(null, { ...see, headers: { ...see.headers, "set-cookie": passwordCookie(deps, share, path, at.self.startsWith("https:")) } });
        },
        { ...hidden, parse: "none" },
      )
      // Its media.
      .get(`${base}/s/:token/m/*`, ({ params, request }) => media(request, params.token), hidden)
      // A KB folder's note, and its files (the gallery's pictures), by id: only what is in the folder.
      .get(
        `${base}/s/:token/d/:id`,
        async ({ params, request }) => {
          const at = pageAt(request, params.token);
          const opened = await openShare(deps, params.token, request);
          if (opened.state === "missing") return gonePage(at, 404);
          if (opened.state === "gone") return gonePage(at, 410);
          if (opened.state === "locked") return passwordPage(at, null);
          const { share } = opened;
          if (share.targetKind !== "kb") return gonePage(at, 404);
          const entry = await kbEntryInFolder(deps, share.ownerId, share.targetId, share.targetPath ?? "", params.id);
          if (entry?.kind !== "document") return gonePage(at, 404);
          return contentPage(at, { kind: "document", title: entry.title, format: entry.format, text: entry.text }, share.passwordHash === null);
        },
        hidden,
      )
      .get(
        `${base}/s/:token/f/:id`,
        async ({ params, request }) => {
          const opened = await openShare(deps, params.token, request);
          const share = opened.state === "open" ? opened.share : null;
          const entry = share?.targetKind === "kb" ? await kbEntryInFolder(deps, share.ownerId, share.targetId, share.targetPath ?? "", params.id) : null;
          if (entry?.kind !== "file") throw new AppError("NOT_FOUND", "file not found", { entity: "file" });
          return entry.serve(request);
        },
        hidden,
      )
  );
};
