// The Account screen's signed-in devices (GET /v1/user/me/sessions): each live session with
// its device, address and last use; any other one signed out with its button (DELETE
// .../:id), or all of them at once; this one is signed out from the header, as always.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h, when } from "./dom.ts";

type Sessions = Answer<"/v1/user/me/sessions", "get">;
type Session = Sessions["items"][number];

function sessionRow(s: Session, onGone: () => void): HTMLElement {
  const name = s.device ?? "Unknown device";
  const meta = [`Signed in ${when(s.createdAt)}`, s.lastUsedAt ? `last used ${when(s.lastUsedAt)}` : null, s.address ? `from ${s.address}` : null]
    .filter(Boolean)
    .join(" · ");
  const error = h("p", { class: "error", role: "alert" });
  const row = h(
    "li",
    { class: "item card" },
    h(
      "div",
      { class: "item-main" },
      h("h3", {}, name, s.current ? h("span", { class: "badge" }, "This device") : null),
      h("p", { class: "meta" }, meta),
      error,
    ),
  );
  if (!s.current) {
    const out = h("button", { type: "button", class: "danger", "aria-label": `Sign out ${name}, signed in ${when(s.createdAt)}` }, "Sign out");
    out.addEventListener("click", async () => {
      if (!confirm(`Sign out ${name}? It must sign in again to use your account.`)) return;
      out.disabled = true;
      try {
        await call("DELETE", `/v1/user/me/sessions/${encodeURIComponent(s.id)}`);
        row.remove();
        onGone();
      } catch (e) {
        error.textContent = inWords(e);
        out.disabled = false;
      }
    });
    row.append(out);
  }
  return row;
}

export function devicesCard(): HTMLElement {
  const list = h("ul", { class: "items", "aria-label": "Signed-in devices" });
  const error = h("p", { class: "error", role: "alert" });
  const note = h("p", { class: "saved", role: "status" });
  const others = h("button", { type: "button", class: "secondary" }, "Sign out all other devices");
  const load = () =>
    call<Sessions>("GET", "/v1/user/me/sessions?limit=50")
      .then((page) => {
        list.replaceChildren(...page.items.map((s) => sessionRow(s, refresh)));
        refresh();
      })
      .catch((e) => {
        error.textContent = inWords(e);
      });
  const refresh = () => {
    others.hidden = !list.querySelector("button.danger");
  };
  others.addEventListener("click", async () => {
    if (!confirm("Sign out every device but this one?")) return;
    others.disabled = true;
    try {
      const { ended } = await call<{ ended: number }>("DELETE", "/v1/user/me/sessions");
      await load();
      note.textContent = ended === 1 ? "1 device signed out." : `${ended} devices signed out.`;
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      others.disabled = false;
    }
  });
  void load();
  return h(
    "section",
    { class: "card settings", id: "devices" },
    h("h2", { id: "devices-title" }, "Signed-in devices"),
    h("p", { class: "hint" }, "Where your account is signed in. Sign out a device you do not know or no longer use; then change your password."),
    list,
    error,
    h("div", { class: "actions" }, others, note),
  );
}
