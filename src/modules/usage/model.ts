import { Kind, type TObject, type TSchema } from "@sinclair/typebox";
import { t } from "elysia";
import { Enum, Int } from "../../http/envelope.ts";
import { DIMENSIONS, type Dimension } from "./dimensions.ts";
import { usageLayout, type Reported, type Tree } from "./report.ts";

const UsedLimit = t.Object({ used: Int(), limit: Int({ description: "-1 means no cap" }) });
const Monthly = t.Object({ used: Int(), limit: Int(), monthYear: t.String({ pattern: "^\\d{4}-\\d{2}$" }) });

const SHAPES = { usedLimit: UsedLimit, monthly: Monthly, used: Int() } as const;

function counterSchema(d: Reported): TSchema {
  const shape = SHAPES[d.report.shape];
  return d.report.description ? t.Object({ ...(shape as TObject).properties }, { description: d.report.description }) : shape;
}

const isSchema = (v: TSchema | Tree<TSchema>): v is TSchema => Kind in v;

function toObject(tree: Tree<TSchema>): TObject {
  const props: Record<string, TSchema> = {};
  for (const [k, v] of Object.entries(tree)) props[k] = isSchema(v) ? v : toObject(v);
  return t.Object(props);
}

/** The schema of GET /v1/user/me/usage for a list of dimensions. */
export function usageModel(dimensions: readonly Dimension[]): TObject {
  return toObject(
    usageLayout<TSchema>(dimensions, counterSchema, {
      plan: t.String(),
      planActive: t.Boolean(),
      "video.status": Enum(["ok", "degraded", "suspended"]),
      "planLimits.docCount": Int({ description: "-1 means no cap" }),
      "planLimits.revisionBytes": Int({
        description:
          "the most bytes of version history the account keeps (docs.revisionBytes); a replacement past it prunes the account's oldest revisions, it is never refused; -1 means no cap",
      }),
    }),
  );
}

export const Usage = usageModel(DIMENSIONS);
export type Usage = typeof Usage.static;

/** "YYYY-MM", UTC: a month of the daily bandwidth. */
export const MonthQuery = t.Object({
  month: t.Optional(t.String({ pattern: "^\\d{4}-(0[1-9]|1[0-2])$", description: "YYYY-MM (UTC); this month when omitted", examples: ["2026-11"] })),
});

export const DailyBandwidth = t.Object({
  month: t.String({ pattern: "^\\d{4}-\\d{2}$" }),
  days: t.Array(
    t.Object({
      day: t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD (UTC)" }),
      imageBandwidth: Int({ description: "image bytes served that day" }),
      mediaBandwidth: Int({ description: "video and audio bytes served that day (the edge's and a hosted provider's)" }),
    }),
    { description: "every day of the month up to today, oldest first; zero where nothing was served" },
  ),
});
