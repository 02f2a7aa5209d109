// Webhooks (#/webhooks): register an endpoint (its address and the events it is sent; the
// signing secret is in the creation's answer only, so it is shown then, once, with a copy
// button), list endpoints with their state, and per endpoint: its recent deliveries with
// the answers they got, Send test, Disable or Enable, Delete (/v1/webhooks/endpoints).
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { copy, field, h, when } from "./dom.ts";
import { pagedList } from "./paged.ts";

type Endpoints = Answer<"/v1/webhooks/endpoints", "get">;
type Endpoint = Endpoints["items"][number];
type Deliveries = Answer<"/v1/webhooks/endpoints/{id}/deliveries", "get">;
type Delivery = Deliveries["items"][number];

const EVENTS: [string, string][] = [
  ["upload.completed", "An upload is stored (image, video, audio)"],
  ["video.ready", "A video is ready to play"],
  ["video.failed", "A video could not be processed"],
  ["document.changed", "A document is created, changed, moved or deleted"],
  ["kb.conflict", "A sync conflict was kept in a knowledge base"],
  ["quota.threshold", "A quota reaches 80% or 100%"],
];

const stateOf = (e: Endpoint) => (e.enabled ? "Enabled" : `Disabled: ${e.disabledReason ?? ""}`);

function deliveryLine(d: Delivery): HTMLLIElement {
  const answer = d.responseStatus !== null ? `answered ${d.responseStatus}` : (d.error ?? "not tried yet");
  const tries = `${d.attempts} ${d.attempts === 1 ? "try" : "tries"}`;
  return h(
    "li",
    { class: "meta" },
    h("strong", {}, d.type),
    ` · ${d.status} · ${answer} · ${tries} · ${when(d.createdAt)}`,
    d.responseBody ? h("pre", { class: "mono" }, d.responseBody.slice(0, 200)) : null,
  );
}

function endpointItem(e: Endpoint, removed: (li: HTMLLIElement) => void): HTMLLIElement {
  const error = h("p", { class: "error", role: "alert" });
  const state = h("p", { class: "meta" }, stateOf(e));
  const note = h("p", { class: "status", role: "status" });
  const toggle = h(
    "button",
    { type: "button", class: "secondary", "aria-label": `${e.enabled ? "Disable" : "Enable"} ${e.url}` },
    e.enabled ? "Disable" : "Enable",
  );
  const test = h("button", { type: "button", class: "secondary", "aria-label": `Send a test event to ${e.url}` }, "Send test");
  const del = h("button", { type: "button", class: "danger", "aria-label": `Delete the endpoint ${e.url}` }, "Delete");
  const deliveries = h("ul", { class: "deliveries", "aria-label": `Recent deliveries to ${e.url}` });
  let current = e;
  const load = async () => {
    const page = await call<Deliveries>("GET", `/v1/webhooks/endpoints/${e.id}/deliveries?limit=10`);
    deliveries.replaceChildren(...page.items.map(deliveryLine));
    if (!page.items.length) deliveries.append(h("li", { class: "meta" }, "No deliveries yet."));
  };
  const act = async (fn: () => Promise<void>) => {
    error.textContent = "";
    try {
      await fn();
    } catch (err) {
      error.textContent = inWords(err);
    }
  };
  toggle.addEventListener("click", () =>
    act(async () => {
      current = await call<Endpoint>("PATCH", `/v1/webhooks/endpoints/${e.id}`, { enabled: !current.enabled });
      state.textContent = stateOf(current);
      toggle.textContent = current.enabled ? "Disable" : "Enable";
      toggle.setAttribute("aria-label", `${current.enabled ? "Disable" : "Enable"} ${e.url}`);
    }),
  );
  test.addEventListener("click", () =>
    act(async () => {
      await call("POST", `/v1/webhooks/endpoints/${e.id}/test`);
      note.textContent = "Test event queued; it is sent within seconds.";
      await load();
    }),
  );
  del.addEventListener("click", () =>
    act(async () => {
      if (!confirm(`Delete the endpoint ${e.url}? No more events are sent to it, and its delivery log goes with it.`)) return;
      await call("DELETE", `/v1/webhooks/endpoints/${e.id}`);
      removed(li);
    }),
  );
  const li = h(
    "li",
    { class: "item card" },
    h(
      "div",
      { class: "item-main" },
      h("h3", {}, e.url),
      h("p", { class: "meta" }, e.events.join(", ")),
      state,
      note,
      error,
      h("h4", {}, "Recent deliveries"),
      deliveries,
    ),
    h("div", { class: "actions" }, test, toggle, del),
  );
  void load().catch((err) => {
    error.textContent = inWords(err);
  });
  return li;
}

/** The new endpoint's secret, shown once with a copy button. */
function secretPanel(secret: string, done: () => void) {
  const input = h("input", { id: "new-secret", readonly: true, value: secret, class: "mono" });
  const note = h("p", { class: "saved", role: "status" });
  const copyButton = h("button", { type: "button", class: "primary" }, "Copy secret");
  copyButton.addEventListener("click", async () => {
    note.textContent = (await copy(input)) ? "Secret copied." : "Select the secret and copy it.";
  });
  const close = h("button", { type: "button", class: "secondary" }, "Done");
  close.addEventListener("click", done);
  return h(
    "section",
    { class: "card created", "aria-labelledby": "secret-title" },
    h("h2", { id: "secret-title" }, "Your endpoint's signing secret"),
    h("p", { class: "warning" }, "Copy it now: it will not be shown again. Your receiver verifies each delivery's webhook-signature with it."),
    h("div", { class: "field" }, h("label", { for: "new-secret" }, "Signing secret"), h("div", { class: "row" }, input, copyButton)),
    note,
    close,
  );
}

export function webhooksScreen() {
  const endpoints = pagedList<Endpoints>({
    label: "Webhook endpoints",
    path: "/v1/webhooks/endpoints",
    empty: "No webhook endpoints yet.",
    item: endpointItem,
  });
  const slot = h("div", {});
  const error = h("p", { class: "error", role: "alert" });
  const create = h("button", { type: "submit", class: "primary" }, "Add endpoint");
  const events = h(
    "fieldset",
    { class: "scopes" },
    h("legend", {}, "Events to send"),
    ...EVENTS.map(([name, words]) => {
      const id = `event-${name.replace(".", "-")}`;
      return h(
        "div",
        { class: "check" },
        h("input", { id, type: "checkbox", name: "event", value: name, "aria-describedby": `${id}-hint` }),
        h("label", { for: id }, name),
        h("span", { class: "hint", id: `${id}-hint` }, words),
      );
    }),
  );
  const form = h(
    "form",
    { class: "card settings-form", "aria-labelledby": "new-endpoint-title", novalidate: true },
    h("h2", { id: "new-endpoint-title" }, "New endpoint"),
    field("Endpoint URL", { name: "url", type: "url", required: true, maxlength: 2048, autocomplete: "off" }, "The https address your receiver listens at."),
    events,
    error,
    h("div", { class: "actions" }, create),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const d = new FormData(form);
    const chosen = d.getAll("event").map(String);
    if (!chosen.length) {
      error.textContent = "Choose at least one event.";
      return;
    }
    create.disabled = true;
    try {
      const { secret, ...made } = await call<Answer<"/v1/webhooks/endpoints", "post", 201>>("POST", "/v1/webhooks/endpoints", {
        url: String(d.get("url") ?? "").trim(),
        events: chosen as Endpoint["events"],
      });
      form.reset();
      endpoints.prepend(made);
      const panel = secretPanel(secret, () => {
        panel.remove();
        form.querySelector("input")?.focus();
      });
      slot.replaceChildren(panel);
      panel.querySelector("input")?.focus();
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      create.disabled = false;
    }
  });
  return h(
    "section",
    { class: "narrow" },
    h("div", { class: "title-row" }, h("h1", {}, "Webhooks")),
    h("p", { class: "lead" }, "Shelf posts the events you choose to your endpoints as they happen, signed so your receiver can check they came from here."),
    slot,
    form,
    h("h2", { class: "list-title" }, "Your endpoints"),
    ...endpoints.parts,
  );
}
