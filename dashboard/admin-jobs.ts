// The scheduled jobs (GET /v1/admin/jobs): each with its schedule (cron, UTC) and its last
// run in a line (when, its outcome, how long it took); "Run now" runs one at once and shows the run
// (POST /v1/admin/jobs/{name}/run, as `shelf admin job run` does).
import { type Answer, call } from "./api.ts";
import { part } from "./admin-part.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";

type Job = Answer<"/v1/admin/jobs", "get">["items"][number];
type Run = Answer<"/v1/admin/jobs/{name}/run", "post">;

/** A run's length in words: 40 ms, 2.4 s, 3 min 5 s. */
function duration(run: Run): string {
  if (!run.finishedAt) return "still running";
  const ms = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function jobItem(job: Job, run: (job: Job, button: HTMLButtonElement) => void) {
  const last = job.lastRun;
  const button = h("button", { type: "button", class: "secondary" }, "Run now", h("span", { class: "visually-hidden" }, ` ${job.name}`));
  button.addEventListener("click", () => run(job, button));
  const said = last?.error ?? last?.summary;
  // The last run in one line: when, how it went, how long it took.
  const lastRun = last
    ? [
        `${new Date(last.startedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })} · `,
        h("span", { class: `outcome ${last.outcome === "ok" ? "good" : "bad"}` }, last.outcome),
        ` · ${duration(last)}`,
      ]
    : ["never"];
  return h(
    "li",
    { class: "admin-item job", "data-job": job.name },
    h("div", { class: "job-head" }, h("h3", {}, job.name), button),
    h("p", { class: "meta" }, job.description),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Schedule"),
      h("dd", {}, h("code", {}, job.schedule), " (UTC)"),
      h("dt", {}, "Last run"),
      h("dd", {}, ...lastRun),
      said ? h("dt", {}, last?.error ? "Error" : "Summary") : null,
      said ? h("dd", {}, said) : null,
    ),
  );
}

export function jobList() {
  const list = h("ul", { class: "admin-list", "aria-label": "Jobs" });
  const error = h("p", { class: "error", role: "alert" });
  const status = h("p", { class: "status", role: "status" }, "Loading…");

  async function run(job: Job, button: HTMLButtonElement) {
    button.disabled = true;
    error.textContent = "";
    status.textContent = `Running ${job.name}…`;
    try {
      const done = await call<Run>("POST", `/v1/admin/jobs/${encodeURIComponent(job.name)}/run`);
      const item = list.querySelector(`[data-job="${CSS.escape(job.name)}"]`);
      const again = jobItem({ ...job, lastRun: done }, run);
      item?.replaceWith(again);
      // The button pressed was replaced: its successor keeps the focus.
      again.querySelector("button")?.focus();
      status.textContent = `${job.name} ran: ${done.outcome}.`;
    } catch (e) {
      status.textContent = "";
      error.textContent = inWords(e);
      button.disabled = false;
    }
  }

  call<Answer<"/v1/admin/jobs", "get">>("GET", "/v1/admin/jobs")
    .then(({ items }) => {
      list.replaceChildren(...items.map((j) => jobItem(j, run)));
      status.textContent = "";
    })
    .catch((e) => {
      status.textContent = "";
      error.textContent = inWords(e);
    });
  return part("admin-jobs", "Jobs", h("p", { class: "hint" }, "The service's scheduled work, and how each last run went."), error, status, list);
}
