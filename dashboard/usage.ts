// Usage (#/usage): the plan, the video playback state in words, each quota of
// GET /v1/user/me/usage as a meter against its limit with the numbers in text,
// and the month's bandwidth per day as a chart (GET /v1/user/me/usage/daily), images and
// video and audio as two series, with the busiest day in words beside it.
// uPlot is loaded with import() when this screen is drawn: no other screen carries it.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { planName } from "./plans.ts";

type Usage = Answer<"/v1/user/me/usage", "get">;
/** A quota as the usage answer gives each: what is used and the limit (-1: none). */
type UsedLimit = Usage["image"]["storage"];

/** Playback state in words: what happens and what brings full quality back. */
const VIDEO_STATES = {
  ok: { title: "Video playback: full quality", words: "Your videos play at every quality your plan allows." },
  degraded: {
    title: "Video playback: reduced to 360p",
    words:
      "This month's video bandwidth is over your plan's limit, so new viewings start at 360p; viewings already playing keep their quality. Above 120% of the limit video playback is suspended. Full quality returns at the start of next month, or within minutes of a plan upgrade.",
  },
  suspended: {
    title: "Video playback: suspended",
    words:
      "This month's video bandwidth is over 120% of your plan's limit, so your videos do not play until the month ends or the plan is upgraded. Audio, images and documents are not affected.",
  },
} as const;

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** One quota: its name, a meter against the limit and the numbers in words; a limit of -1 is none. */
function quota(name: string, { used, limit }: UsedLimit, show: (n: number) => string) {
  const id = `q-${name.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  const text = limit < 0 ? `${show(used)}, no limit` : `${show(used)} of ${show(limit)}`;
  const over = limit >= 0 && used > limit;
  return h(
    "li",
    { class: `quota${over ? " over" : ""}` },
    h("span", { class: "quota-name", id: `${id}-name` }, name),
    h("span", { class: "quota-text", id: `${id}-text` }, text),
    limit < 0
      ? null
      : h("meter", {
          min: 0,
          max: Math.max(limit, 1),
          value: Math.min(used, Math.max(limit, 1)),
          // Green below 80%, amber to the limit, red at it (the meter's own colours).
          low: limit * 0.8,
          high: limit * 0.99,
          optimum: 0,
          "aria-labelledby": `${id}-name`,
          "aria-describedby": `${id}-text`,
        }),
  );
}

/** Each day of the month so far. */
type Daily = Answer<"/v1/user/me/usage/daily", "get">;

const BYTE_STEPS = [0, 1, 2, 3, 4].flatMap((k) => [1, 2, 5, 10, 20, 50, 100, 200, 500].map((m) => m * 1024 ** k));
const dayName = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleString(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
const served = (d: Daily["days"][number]) => d.imageBandwidth + d.mediaBandwidth;

/** The chart in words, for screen readers and as its caption: the busiest day and the month's bytes. */
function dailySummary(daily: Daily, month: string): string {
  const busiest = daily.days.reduce<Daily["days"][number] | null>((best, d) => (served(d) > (best ? served(best) : 0) ? d : best), null);
  if (!busiest) return `Nothing served yet in ${month}.`;
  const image = daily.days.reduce((s, d) => s + d.imageBandwidth, 0);
  const media = daily.days.reduce((s, d) => s + d.mediaBandwidth, 0);
  return (
    `Busiest day: ${dayName(busiest.day)}, ${bytes(served(busiest))} (images ${bytes(busiest.imageBandwidth)}, video and audio ${bytes(busiest.mediaBandwidth)}). ` +
    `${month} so far: images ${bytes(image)}, video and audio ${bytes(media)}.`
  );
}

/** Bandwidth per day over the month: images and video and audio as two series with a legend. */
async function bandwidthChart(box: HTMLElement, daily: Daily) {
  const { default: uPlot } = await import("uplot");
  const css = getComputedStyle(document.documentElement);
  const accent = css.getPropertyValue("--accent").trim() || "#2456d6";
  const second = "#c2410c";
  const text = css.getPropertyValue("--muted").trim() || "#5b6470";
  const grid = css.getPropertyValue("--line").trim() || "#dde1e6";
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const width = () => Math.max(200, box.clientWidth);
  const days = daily.days.map((d) => Number(d.day.slice(8)));
  const top = Math.max(1024, ...daily.days.map((d) => Math.max(d.imageBandwidth, d.mediaBandwidth)));
  // The legend says the day under the pointer; with none, the month so far (never an empty "Images:").
  const month = new Date(`${daily.month}-01T00:00:00Z`).toLocaleString(undefined, { month: "long", timeZone: "UTC" });
  const total = (pick: (d: Daily["days"][number]) => number) => bytes(daily.days.reduce((s, d) => s + pick(d), 0));
  const imageTotal = total((d) => d.imageBandwidth);
  const mediaTotal = total((d) => d.mediaBandwidth);
  // Wide enough for the longest tick label ("1000 bytes", "500 MB"): about 7 px a character at the axis's size.
  const ySize = (_u: unknown, values: string[] | null) => Math.max(48, ...(values ?? []).map((v) => v.length * 7 + 22));
  box.replaceChildren();
  const plot = new uPlot(
    {
      width: width(),
      height: 220,
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false, range: [0.5, Math.max(days.length, 1) + 0.5] }, y: { range: [0, top * 1.1] } },
      axes: [
        { ...axis, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : "")), grid: { show: false } },
        // Ticks at round numbers of the units bytes() shows (KB, MB, GB of 1024).
        { ...axis, incrs: BYTE_STEPS, values: (_u, splits) => splits.map((v) => bytes(Math.round(v))), size: ySize },
      ],
      series: [
        { label: "Day", value: (_u, v) => (v == null ? `${month} so far` : dayName(daily.days[v - 1]?.day ?? `${daily.month}-01`)) },
        { label: "Images", stroke: accent, width: 2, points: { show: true, size: 5 }, value: (_u, v) => (v == null ? imageTotal : bytes(v)) },
        {
          label: "Video and audio",
          stroke: second,
          width: 2,
          points: { show: true, size: 5 },
          value: (_u, v) => (v == null ? mediaTotal : bytes(v)),
        },
      ],
    },
    [days, daily.days.map((d) => d.imageBandwidth), daily.days.map((d) => d.mediaBandwidth)],
    box,
  );
  // The chart follows its box's width (a phone turned, a window resized); the canvas itself
  // keeps its size, so the box is measured, not the chart.
  let last = width();
  new ResizeObserver(() => {
    if (!box.isConnected || width() === last) return;
    last = width();
    plot.setSize({ width: last, height: 220 });
  }).observe(box);
}

function videoState(status: Usage["video"]["status"]) {
  const s = VIDEO_STATES[status] ?? VIDEO_STATES.ok;
  return h("section", { class: `card state state-${status}`, "aria-labelledby": "video-state" }, h("h2", { id: "video-state" }, s.title), h("p", {}, s.words));
}

function drawn(u: Usage, daily: Daily) {
  const plan = planName(u.plan);
  const month = new Date(`${u.image.bandwidth.monthYear}-01T00:00:00Z`).toLocaleString(undefined, { month: "long", year: "numeric", timeZone: "UTC" });
  const quotas = [
    quota("Image storage", u.image.storage, bytes),
    quota("Video and audio storage", u.video.storage, bytes),
    quota("Image bandwidth this month", u.image.bandwidth, bytes),
    quota("Video and audio bandwidth this month", u.video.bandwidth, bytes),
    quota("Documents", { used: u.doc.count.used, limit: u.planLimits.docCount }, (n) => count(n, "document", "documents")),
    quota("Version history", { used: u.docs.revisionBytes, limit: u.planLimits.revisionBytes }, bytes),
    quota("Uploads today", u.uploads.day, (n) => count(n, "upload", "uploads")),
    quota("Uploads this month", u.uploads.month, (n) => count(n, "upload", "uploads")),
  ];
  const summary = dailySummary(daily, month);
  const chart = h("div", { class: "chart", role: "img", "aria-label": summary });
  void bandwidthChart(chart, daily).catch(() => {
    chart.textContent = summary;
  });
  return [
    h(
      "section",
      { class: "card plan", "aria-labelledby": "plan-title" },
      h("h2", { id: "plan-title" }, `Plan: ${plan}`),
      h("p", {}, u.planActive ? "Your plan is active." : "Your plan is not active: uploads and restoring versions need an active plan."),
    ),
    videoState(u.video.status),
    h(
      "section",
      { class: "card", "aria-labelledby": "quotas-title" },
      h("h2", { id: "quotas-title" }, "Quotas"),
      h("ul", { class: "quotas" }, ...quotas),
      // What deleted items still hold: counted in the storage above until they leave the trash.
      u.trashBytes > 0
        ? h("p", { class: "hint" }, `${bytes(u.trashBytes)} of it is in `, h("a", { href: "#/trash" }, "the trash"), ", counted until it is deleted for good.")
        : null,
    ),
    h(
      "section",
      { class: "card", "aria-labelledby": "bandwidth-title" },
      h("h2", { id: "bandwidth-title" }, `Bandwidth in ${month}`),
      h("p", { class: "hint" }, "Bytes served each day of the month so far (UTC days). Counted hourly."),
      h("figure", { class: "chart-box" }, chart, h("figcaption", { class: "hint" }, summary)),
    ),
  ];
}

export function usageScreen() {
  const status = h("p", { class: "status", role: "status" }, "Loading…");
  const error = h("p", { class: "error", role: "alert" });
  const body = h("div", { class: "settings-list" });
  Promise.all([call<Usage>("GET", "/v1/user/me/usage"), call<Daily>("GET", "/v1/user/me/usage/daily")])
    .then(([u, daily]) => body.append(...drawn(u, daily)))
    .catch((e) => {
      error.textContent = inWords(e);
    })
    .finally(() => {
      status.textContent = "";
    });
  return h("section", { class: "narrow" }, h("div", { class: "title-row" }, h("h1", {}, "Usage")), status, error, body);
}
