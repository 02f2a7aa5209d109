import { t } from "elysia";

const UsedLimit = t.Object({ used: t.Integer(), limit: t.Integer({ description: "-1 means no cap" }) });
const Monthly = t.Object({ used: t.Integer(), limit: t.Integer(), monthYear: t.String({ pattern: "^\\d{4}-\\d{2}$" }) });

export const Usage = t.Object({
  plan: t.String(),
  planActive: t.Boolean(),
  image: t.Object({ storage: UsedLimit, bandwidth: Monthly }),
  video: t.Object({
    storage: t.Object({ ...UsedLimit.properties }, { description: "audio and video bytes (media_storage)" }),
    bandwidth: Monthly,
    status: t.UnionEnum(["ok", "degraded", "suspended"]),
  }),
  doc: t.Object({ count: UsedLimit }),
  planLimits: t.Object({ docCount: t.Integer({ description: "-1 means no cap" }) }),
  docs: t.Object({ revisionCount: t.Integer(), revisionBytes: t.Integer() }),
  uploads: t.Object({ day: UsedLimit, month: UsedLimit }),
});
export type Usage = typeof Usage.static;
