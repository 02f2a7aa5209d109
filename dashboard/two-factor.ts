// The Account screen's "Two-factor authentication" card: enrol an authenticator app (its
// otpauth URL and secret as text), confirm with a code, the recovery codes shown once with
// copy and download, new recovery codes, and turning it off.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { field, h } from "./dom.ts";
import { refreshUnread } from "./unread.ts";

type Me = Answer<"/v1/user/me", "get">;

/** A small form of the card: its fields, a button, an error line; `act` runs on submit. */
function miniForm(label: string, fields: HTMLElement[], submit: string, act: (d: FormData, form: HTMLFormElement) => Promise<void>) {
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary" }, submit);
  const form = h("form", { class: "settings-form", "aria-label": label, novalidate: true }, ...fields, error, h("div", { class: "actions" }, button));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      await act(new FormData(form), form);
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/** The recovery codes, shown this once, with copy and download. */
export function recoveryCodesView(codes: string[], done: () => void) {
  const text = codes.join("\n");
  const copied = h("p", { class: "saved", role: "status" });
  const download = h(
    "a",
    {
      class: "button",
      download: "shelf-recovery-codes.txt",
      href: URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" })),
    },
    "Download",
  );
  return h(
    "div",
    { class: "recovery-codes" },
    h("p", {}, "Your recovery codes. Each signs in once instead of a code of the app. Keep them somewhere safe: they are not shown again."),
    h("ul", { "aria-label": "Recovery codes" }, ...codes.map((c) => h("li", {}, h("code", {}, c)))),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        {
          type: "button",
          onclick: () => {
            navigator.clipboard
              .writeText(text)
              .then(() => {
                copied.textContent = "Copied.";
              })
              .catch(() => {
                copied.textContent = "Copying is not allowed here: select the codes instead.";
              });
          },
        },
        "Copy",
      ),
      download,
      h("button", { type: "button", class: "primary", onclick: done }, "I saved them"),
      copied,
    ),
  );
}

export function twoFactorCard(me: Me) {
  const body = h("div", {});
  const status = h("p", { class: "saved", role: "status" });
  const render = (state: Me["twoFactor"]) => {
    body.replaceChildren(state.totp ? onView(state) : offView());
  };
  const reload = async () => {
    render((await call<Me>("GET", "/v1/user/me")).twoFactor);
    refreshUnread();
  };

  const offView = () => {
    const start = h(
      "button",
      {
        type: "button",
        class: "primary",
        onclick: async () => {
          try {
            const enrol = await call<Answer<"/v1/user/me/2fa/totp", "post">>("POST", "/v1/user/me/2fa/totp");
            body.replaceChildren(enrolView(enrol));
          } catch (e) {
            status.textContent = inWords(e);
          }
        },
      },
      "Set up two-factor authentication",
    );
    return h(
      "div",
      {},
      h(
        "p",
        { class: "hint" },
        "Off: signing in asks for no code of an authenticator app (a passkey, below, may still be asked for). With it on, signing in also asks for a code of the app.",
      ),
      start,
    );
  };

  const enrolView = (enrol: { secret: string; otpauthUrl: string; qrCode: string }) =>
    h(
      "div",
      {},
      h("p", {}, "Add this account to your authenticator app: scan the QR code, open the link below on the phone, or type the secret in the app."),
      h("img", { src: enrol.qrCode, alt: "QR code of the authenticator link", width: 200, height: 200, class: "qr" }),
      h("p", {}, "Link: ", h("code", { id: "totp-url", class: "wrap" }, enrol.otpauthUrl)),
      h("p", {}, "Secret: ", h("code", { id: "totp-secret" }, enrol.secret)),
      miniForm(
        "Confirm the authenticator",
        [field("Code from the app", { name: "code", inputmode: "numeric", autocomplete: "one-time-code", required: true, maxlength: 16 })],
        "Turn on",
        async (d) => {
          const { recoveryCodes } = await call<Answer<"/v1/user/me/2fa/totp/confirm", "post">>("POST", "/v1/user/me/2fa/totp/confirm", {
            code: String(d.get("code")).trim(),
          });
          status.textContent = "Two-factor authentication is on.";
          body.replaceChildren(recoveryCodesView(recoveryCodes, () => void reload()));
        },
      ),
    );

  const onView = (state: Me["twoFactor"]) =>
    h(
      "div",
      {},
      h("p", { class: "hint" }, `On: signing in asks for a code of your authenticator app. ${state.recoveryCodesLeft} recovery codes left.`),
      miniForm(
        "New recovery codes",
        [field("Code from the app", { name: "code", inputmode: "numeric", autocomplete: "one-time-code", required: true, maxlength: 16 })],
        "Make new recovery codes",
        async (d) => {
          const { recoveryCodes } = await call<Answer<"/v1/user/me/2fa/recovery-codes", "post">>("POST", "/v1/user/me/2fa/recovery-codes", {
            code: String(d.get("code")).trim(),
          });
          status.textContent = "New recovery codes made; the old ones no longer work.";
          body.replaceChildren(recoveryCodesView(recoveryCodes, () => void reload()));
        },
      ),
      miniForm(
        "Turn off two-factor authentication",
        [field("Your password, to turn it off", { name: "offPassword", type: "password", autocomplete: "current-password", required: true })],
        "Turn off",
        async (d) => {
          await call("DELETE", "/v1/user/me/2fa", { password: String(d.get("offPassword")) });
          status.textContent = "Two-factor authentication is off.";
          await reload();
        },
      ),
    );

  render(me.twoFactor);
  return h(
    "section",
    { class: "card settings", "aria-labelledby": "two-factor-title" },
    h("h2", { id: "two-factor-title" }, "Two-factor authentication"),
    body,
    status,
  );
}
