// The in-app notification routes' request and response models.
import { t } from "elysia";
import { Int, Page } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";

export const NotificationItem = t.Object({
  id: t.String(),
  kind: t.String({
    description:
      "what happened: quota_80, quota_100, video_bandwidth_*, conflict_branches_expiring, conflict_branch_created, video_ready, video_failed, api_key_created, api_key_revoked, oauth_authorized, device_signed_in, password_changed, sign_in_failures, new_sign_in, two_factor_enabled, two_factor_disabled, recovery_code_used, passkey_added, passkey_removed, export_ready, export_failed",
  }),
  title: t.String(),
  body: t.String({ description: "plain text" }),
  data: t.Record(t.String(), t.Unknown(), { description: "the event's own fields (ids of the video, key, branch, client...)" }),
  createdAt: t.String({ format: "date-time" }),
  readAt: t.Nullable(t.String({ format: "date-time" })),
});

export const NotificationPage = Page(NotificationItem, {
  unreadCount: Int({ description: "how many of the user's notifications are unread, in all (not only this page)" }),
});

export const UnreadCount = t.Object({ unreadCount: Int({ description: "how many of the user's notifications are unread" }) });

export const NotificationListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
  unread: t.Optional(t.Boolean({ description: "true: unread notifications only" })),
});

export const NotificationParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

export const ReadAll = t.Object({ marked: Int({ description: "how many notifications were unread and are now read" }) });
