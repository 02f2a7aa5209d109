// The plans (GET /v1/admin/plans) as this server applies them (defaults with the operator's
// PLAN_OVERRIDES): one column per plan, a row per limit a person would ask about.
import { type Answer, call } from "./api.ts";
import { part } from "./admin-part.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { planName } from "./plans.ts";

type Plans = Answer<"/v1/admin/plans", "get">;
type Limits = Plans["items"][number]["limits"];

const size = (n: number | boolean) => (n === -1 ? "no cap" : bytes(Number(n)));
const count = (n: number | boolean) => (n === -1 ? "no cap" : Number(n).toLocaleString());
const yes = (b: number | boolean) => (b ? "yes" : "no");

const ROWS: [label: string, key: keyof Limits, show: (v: number | boolean) => string][] = [
  ["Image storage", "imageStorageBytes", size],
  ["Image bandwidth a month", "imageBandwidthBytes", size],
  ["Video and audio storage", "mediaStorageBytes", size],
  ["Video and audio bandwidth a month", "mediaBandwidthBytes", size],
  ["Largest image", "imageMaxBytes", size],
  ["Video", "videoAllowed", yes],
  ["Audio", "audioAllowed", yes],
  ["Uploads a day", "uploadsPerDay", count],
  ["Uploads a month", "uploadsPerMonth", count],
  ["Documents", "docCount", count],
  ["Knowledge bases", "kbCount", count],
  ["API keys", "apiKeyCount", count],
  ["Version history", "revisionBytes", size],
];

export function planTable() {
  // A phone scrolls the table sideways: the box takes the focus so a keyboard can scroll it too.
  const holder = h(
    "div",
    { class: "plan-table", tabindex: "0", role: "group", "aria-label": "Plans and their limits" },
    h("p", { class: "status", role: "status" }, "Loading…"),
  );
  void call<Plans>("GET", "/v1/admin/plans").then(
    ({ items }) => {
      holder.replaceChildren(
        h(
          "table",
          {},
          h("caption", { class: "visually-hidden" }, "Plans and their limits"),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Limit"), ...items.map((p) => h("th", { scope: "col" }, planName(p.name))))),
          h(
            "tbody",
            {},
            ...ROWS.map(([label, key, show]) => h("tr", {}, h("th", { scope: "row" }, label), ...items.map((p) => h("td", {}, show(p.limits[key]))))),
          ),
        ),
      );
    },
    (e) => holder.replaceChildren(h("p", { class: "error", role: "alert" }, inWords(e))),
  );
  return part(
    "admin-plans",
    "Plans",
    h("p", { class: "hint" }, "What each plan allows on this server. Operators change them with PLAN_OVERRIDES (docs/operators.md)."),
    holder,
  );
}
