// Account (#/account): nickname, password, version history and the per-kind notification
// choices, each its own form saved on its own (PATCH /v1/user/me, POST
// /v1/user/me/password) with a confirmation beside its button, or the API's refusal; and
// the account's exports (exports.ts).
import { devicesCard } from "./devices.ts";
import { identitiesCard } from "./identities.ts";
import { type Answer, call, currentUser } from "./api.ts";
import { inWords } from "./auth.ts";
import { field, h } from "./dom.ts";
import { exportsCard } from "./exports.ts";
import { showUserName } from "./header.ts";
import { passkeysCard } from "./passkeys.ts";
import { twoFactorCard } from "./two-factor.ts";
import { refreshUnread } from "./unread.ts";

/** The account; `notifications`: where each kind goes, `emailMandatory` when the API will not turn its e-mail off. */
type Me = Answer<"/v1/user/me", "get">;

/** Each kind in words: every kind the document names (a kind it adds is an error here until named). */
const KINDS: Record<string, string> = {
  quota_80: "A quota is 80% used",
  quota_100: "A quota is used up",
  video_bandwidth_degraded: "Video bandwidth over the limit (playback at 360p)",
  video_bandwidth_over_110: "Video bandwidth over 110%",
  video_bandwidth_suspended: "Video playback suspended (over 120%)",
  conflict_branches_expiring: "Sync conflicts about to be discarded",
  conflict_branch_created: "A sync conflict was kept",
  video_ready: "A video is ready",
  video_failed: "A video could not be processed",
  api_key_created: "An API key was created",
  api_key_revoked: "An API key was revoked",
  oauth_authorized: "An app was authorized",
  device_signed_in: "A device signed in",
  password_changed: "Your password was changed",
  sign_in_failures: "Many failed attempts to sign in",
  new_sign_in: "A sign-in from a new device",
  two_factor_enabled: "Two-factor authentication was turned on",
  two_factor_disabled: "Two-factor authentication was turned off",
  recovery_code_used: "A recovery code was used to sign in",
  passkey_added: "A passkey was added",
  passkey_removed: "A passkey was removed",
  sync_v1_final_reminder: "Sync protocol v1 retirement reminder",
  export_ready: "An account export is ready to download",
  export_failed: "An account export failed",
  webhook_disabled: "A webhook endpoint was disabled after failing",
} satisfies Record<keyof Me["notifications"], string>;

/** A card holding one form: its heading, fields, a button, a confirmation and an error line. */
function settingsCard(id: string, title: string, intro: string | null, fields: HTMLElement[], submit: string, act: (form: HTMLFormElement) => Promise<string>) {
  const note = h("p", { class: "saved", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary" }, submit);
  const form = h("form", { class: "settings-form", "aria-labelledby": id, novalidate: true }, ...fields, error, h("div", { class: "actions" }, button, note));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    note.textContent = "";
    error.textContent = "";
    button.disabled = true;
    try {
      note.textContent = await act(form);
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      button.disabled = false;
    }
  });
  return h("section", { class: "card settings" }, h("h2", { id }, title), intro ? h("p", { class: "hint" }, intro) : null, form);
}

function profileCard(me: Me) {
  const nickname = field(
    "Nickname",
    { name: "nickname", autocomplete: "nickname", value: me.nickname ?? "", maxlength: 64 },
    "How the service greets you. Leave empty for none.",
  );
  return settingsCard("profile-title", "Profile", `Signed in as ${me.email}.`, [nickname], "Save nickname", async (form) => {
    const value = String(new FormData(form).get("nickname") ?? "").trim();
    const saved = await call<Answer<"/v1/user/me", "patch">>("PATCH", "/v1/user/me", { nickname: value || null });
    // The header greets the person by this name: it changes at once, not at the next sign-in.
    const user = currentUser();
    if (user) user.nickname = saved.nickname;
    showUserName(saved.nickname || saved.email);
    return "Nickname saved.";
  });
}

/** Moving the account to another address: a link goes to the new one, and nothing changes until it is opened. */
function emailCard(me: Me) {
  const fields = [
    field("New e-mail address", { name: "newEmail", type: "email", autocomplete: "email", required: true }),
    field("Your password, to confirm", { name: "confirmPassword", type: "password", autocomplete: "current-password", required: true }),
  ];
  return settingsCard(
    "email-title",
    "E-mail address",
    `Your account uses ${me.email}${me.emailVerified ? " (confirmed)" : ""}. To move it to another address, open the link we mail to the new one.`,
    fields,
    "Send the confirmation link",
    async (form) => {
      const d = new FormData(form);
      await call("POST", "/v1/user/me/email", { newEmail: String(d.get("newEmail")).trim(), currentPassword: String(d.get("confirmPassword")) });
      form.reset();
      return "A link is on its way to the new address. Your account keeps its address until you open it.";
    },
  );
}

function passwordCard() {
  const fields = [
    field("Current password", { name: "currentPassword", type: "password", autocomplete: "current-password", required: true }),
    field("New password", { name: "newPassword", type: "password", autocomplete: "new-password", required: true }, "At least 8 characters."),
  ];
  return settingsCard(
    "password-title",
    "Password",
    "Other browsers and devices signed in with your password are signed out; this one stays.",
    fields,
    "Change password",
    async (form) => {
      const d = new FormData(form);
      await call("POST", "/v1/user/me/password", { currentPassword: String(d.get("currentPassword")), newPassword: String(d.get("newPassword")) });
      form.reset();
      // The change is told to the account (password_changed): the header's count shows it.
      refreshUnread();
      return "Password changed.";
    },
  );
}

/**
 * An account made by signing in through the instance's OpenID provider has no password until
 * it asks for a link to choose one (the password reset's, mailed to its address).
 */
function noPasswordCard(me: Me) {
  const status = h("p", { class: "saved", role: "status" });
  const button = h("button", { type: "button", class: "secondary" }, "Mail me a link to choose one");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await call("POST", "/v1/auth/password-reset", { email: me.email });
      status.textContent = `A link is on its way to ${me.email}. It works once, within an hour.`;
    } catch (e) {
      status.textContent = inWords(e);
      button.disabled = false;
    }
  });
  return h(
    "section",
    { class: "card settings", "aria-labelledby": "password-title" },
    h("h2", { id: "password-title" }, "Password"),
    h("p", { class: "hint" }, "Your account has no password: you sign in through your sign-in provider. A password lets you sign in here too."),
    h("div", { class: "actions" }, button, status),
  );
}

function historyCard(me: Me) {
  const enabled = h("input", { id: "f-docVersioningEnabled", type: "checkbox", name: "docVersioningEnabled", checked: me.docVersioningEnabled });
  const max = field(
    "Versions kept per document",
    { name: "docVersioningMax", type: "number", min: 1, max: 500, required: true, value: me.docVersioningMax, inputmode: "numeric" },
    "1 to 500; the oldest is removed past it.",
  );
  const fields = [h("div", { class: "check" }, enabled, h("label", { for: "f-docVersioningEnabled" }, "Keep earlier versions of documents")), max];
  return settingsCard(
    "history-title",
    "Version history",
    "When a document is replaced, its earlier content is kept as a version you can restore.",
    fields,
    "Save version history",
    async (form) => {
      const d = new FormData(form);
      const n = Number(d.get("docVersioningMax"));
      await call("PATCH", "/v1/user/me", { docVersioningEnabled: enabled.checked, docVersioningMax: Number.isInteger(n) ? n : -1 });
      return "Version history saved.";
    },
  );
}

function notificationsCard(me: Me) {
  const rows = Object.entries(me.notifications).map(([kind, choice]) => {
    const words = KINDS[kind] ?? kind;
    const mandatory = choice.emailMandatory;
    const email = h("input", { type: "checkbox", name: `${kind}.email`, checked: choice.email, disabled: mandatory, "aria-label": `E-mail: ${words}` });
    const inApp = h("input", { type: "checkbox", name: `${kind}.inApp`, checked: choice.inApp, "aria-label": `In the app: ${words}` });
    return h(
      "tr",
      {},
      h("th", { scope: "row" }, words, mandatory ? h("span", { class: "hint" }, " Always e-mailed.") : null),
      h("td", {}, email),
      h("td", {}, inApp),
    );
  });
  const table = h(
    "table",
    { class: "choices" },
    h("caption", { class: "visually-hidden" }, "Where each notification goes"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Event"), h("th", { scope: "col" }, "E-mail"), h("th", { scope: "col" }, "In the app"))),
    h("tbody", {}, ...rows),
  );
  return settingsCard(
    "notifications-title",
    "Notifications",
    "Choose, per event, whether you get an e-mail and whether it is listed in the app. The e-mails about a quota used up and about video bandwidth are always sent.",
    [table],
    "Save notification choices",
    async (form) => {
      const d = new FormData(form);
      // A mandatory e-mail is not sent: its box is disabled (FormData leaves it out) and the API refuses turning it off.
      const patch = Object.fromEntries(
        Object.entries(me.notifications).map(([kind, choice]) => [
          kind,
          choice.emailMandatory ? { inApp: d.has(`${kind}.inApp`) } : { email: d.has(`${kind}.email`), inApp: d.has(`${kind}.inApp`) },
        ]),
      );
      await call("PATCH", "/v1/user/me", { notifications: patch });
      return "Notification choices saved.";
    },
  );
}

export function accountScreen() {
  const status = h("p", { class: "status", role: "status" }, "Loading…");
  const error = h("p", { class: "error", role: "alert" });
  const body = h("div", { class: "settings-list" });
  call<Me>("GET", "/v1/user/me")
    .then((me) =>
      body.append(
        profileCard(me),
        emailCard(me),
        me.hasPassword ? passwordCard() : noPasswordCard(me),
        twoFactorCard(me),
        passkeysCard(),
        devicesCard(),
        identitiesCard(),
        historyCard(me),
        notificationsCard(me),
        exportsCard(),
      ),
    )
    .catch((e) => {
      error.textContent = inWords(e);
    })
    .finally(() => {
      status.textContent = "";
    });
  return h("section", { class: "narrow" }, h("div", { class: "title-row" }, h("h1", {}, "Account")), status, error, body);
}
