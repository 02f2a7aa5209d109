// /v1/notifications: the in-app list of what was told to the user (inbox.ts), the same
// events the e-mails come from (outbox.ts: one event, two channels).
import { Elysia } from "elysia";
import { Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { listNotifications, markAllRead, markRead, unreadCount } from "./inbox.ts";
import { NotificationItem, NotificationListQuery, NotificationPage, NotificationParams, ReadAll, UnreadCount } from "./model.ts";

export const notificationsModule = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "notifications", detail: { tags: ["account"] } })
    .use(sharedModels)
    .use(guard)
    .get(
      "/v1/notifications",
      async ({ principal, query }) =>
        ok(await listNotifications(deps.db, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20, unread: query.unread === true })),
      {
        auth: { scope: "account.read", tier: "read" },
        query: NotificationListQuery,
        response: { 200: Ok(NotificationPage), 400: "Error" },
        detail: {
          summary: "The caller's notifications, newest first (unread=true: unread only), with the unread count",
          description:
            "Quota marks, video bandwidth states, conflict branches (new and about to be discarded), videos ready or failed, and security events (API keys created or revoked, OAuth authorizations, device sign-ins, password changes). Which kinds are listed, and which are also e-mailed, is the user's choice per kind (PATCH /v1/user/me, notifications). Read notifications are kept 30 days, unread ones 90.",
        },
      },
    )
    .get("/v1/notifications/unread-count", async ({ principal }) => ok({ unreadCount: await unreadCount(deps.db, principal.userId) }), {
      auth: { scope: "account.read", tier: "read" },
      response: { 200: Ok(UnreadCount) },
      detail: { summary: "How many of the caller's notifications are unread (the same count as the list's unreadCount, without a page)" },
    })
    .post("/v1/notifications/read-all", async ({ principal }) => ok({ marked: await markAllRead(deps.db, principal.userId, deps.clock.now()) }), {
      auth: { scope: "account.read", tier: "mutation" },
      response: { 200: Ok(ReadAll) },
      detail: { summary: "Mark every unread notification read; answers how many were" },
    })
    .post("/v1/notifications/:id/read", async ({ principal, params }) => ok(await markRead(deps.db, principal.userId, params.id, deps.clock.now())), {
      auth: { scope: "account.read", tier: "mutation" },
      params: NotificationParams,
      response: { 200: Ok(NotificationItem), 404: "Error" },
      detail: { summary: "Mark one notification read (again: keeps the first readAt); 404 for one that is not the caller's" },
    });
