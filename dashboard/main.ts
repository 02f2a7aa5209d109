// The dashboard's script: the shell (header, navigation) and a screen per URL fragment.
// Signed-out screens: #/signin, #/signup (the start on an instance with no account yet:
// the owner's sign-up); signed-in: #/library (the start), #/upload, #/kbs, #/usage, #/trash,
// #/admin (its parts #/admin/plans, #/admin/apps, #/admin/jobs; in the nav for admins
// only), the account's own #/account, #/keys, #/shares, #/apps and #/webhooks (under its name in the header), and
// #/notifications (reached from the header's count). Any other fragment is "not found".
// A screen that shows one thing takes its address after a prefix: #/kbs/<id>/<path...>.
import { accountScreen } from "./account.ts";
import { goToOwnAddress } from "./address.ts";
import { type AdminPart, adminScreen } from "./admin.ts";
import { currentUser, resume, type Setup, setupState } from "./api.ts";
import { appsScreen } from "./apps.ts";
import { confirmAddressScreen, forgotPasswordScreen, providerCodeScreen, resetPasswordScreen, signInScreen, signUpScreen } from "./auth.ts";
import { collectionScreen, collectionsScreen } from "./collections.ts";
import { h, show } from "./dom.ts";
import { conflictsScreen } from "./conflicts.ts";
import { header } from "./header.ts";
import { historyScreen } from "./history.ts";
import { withKbSearch } from "./kb-search.ts";
import { kbScreen } from "./kb-tree.ts";
import { kbsScreen } from "./kbs.ts";
import { keysScreen } from "./keys.ts";
import { sharesScreen } from "./shares.ts";
import { libraryScreen } from "./library.ts";
import { notificationsScreen } from "./notifications.ts";
import { takeNotice } from "./notice.ts";
import { trashScreen } from "./trash.ts";
import { uploadScreen } from "./upload.ts";
import { usageScreen } from "./usage.ts";
import { webhooksScreen } from "./webhooks.ts";

interface Screen {
  title: string;
  screen: () => HTMLElement;
  /** The nav's link that is current on this screen (itself unless told). */
  nav?: string;
}

/** The main screens, in the nav in this order; Admin for admins only. */
const mainScreens: Record<string, Screen & { admin?: true }> = {
  "#/library": { title: "Library", screen: libraryScreen },
  "#/upload": { title: "Upload", screen: uploadScreen },
  "#/collections": { title: "Collections", screen: collectionsScreen },
  "#/kbs": { title: "Knowledge bases", screen: kbsScreen },
  "#/usage": { title: "Usage", screen: usageScreen },
  "#/trash": { title: "Trash", screen: trashScreen },
  "#/admin": { title: "Admin", screen: () => adminScreen("accounts"), admin: true },
};
/** The account's own screens, under its name in the header. */
const accountScreens: Record<string, Screen> = {
  "#/account": { title: "Account", screen: accountScreen },
  "#/keys": { title: "API keys", screen: keysScreen },
  "#/shares": { title: "Share links", screen: sharesScreen },
  "#/apps": { title: "Authorized apps", screen: appsScreen },
  "#/webhooks": { title: "Webhooks", screen: webhooksScreen },
};
const adminPart = (part: AdminPart, title: string): Screen => ({ title, screen: () => adminScreen(part), nav: "#/admin" });
/** Signed-in screens linked from elsewhere (the header's count, the admin screen's parts). */
const unlisted: Record<string, Screen> = {
  "#/notifications": { title: "Notifications", screen: notificationsScreen },
  "#/admin/plans": adminPart("plans", "Plans · Admin"),
  "#/admin/apps": adminPart("apps", "App approval · Admin"),
  "#/admin/jobs": adminPart("jobs", "Jobs · Admin"),
};
/** Signed-in screens of one thing: the fragment's rest after the prefix is the screen's argument. */
const prefixed: { prefix: string; title: string; nav: string; screen: (rest: string) => HTMLElement }[] = [
  { prefix: "#/kbs/", title: "Knowledge base", nav: "#/kbs", screen: (rest) => withKbSearch(kbScreen(rest), rest) },
  { prefix: "#/history/", title: "History", nav: "#/kbs", screen: historyScreen },
  { prefix: "#/collections/", title: "Collection", nav: "#/collections", screen: collectionScreen },
  { prefix: "#/conflicts/", title: "Conflicts", nav: "#/kbs", screen: conflictsScreen },
];

/** Whether the instance has an account yet: asked when nobody is signed in (GET /v1/auth/setup); null if it could not be read. */
let setup: Setup | null = null;

const signedOut: Record<string, Screen> = {
  "#/signin": { title: "Sign in", screen: () => signInScreen(setup) },
  "#/signup": { title: "Create your account", screen: () => signUpScreen(setup) },
  "#/forgot-password": { title: "Reset your password", screen: forgotPasswordScreen },
};

/** The mailed links' screens (#/reset-password?token=... and the address ones): signed in or not, they are the mail's links. */
const LINKS: Record<string, { title: string; screen: (token: string) => HTMLElement }> = {
  "#/reset-password?": { title: "Choose a new password", screen: resetPasswordScreen },
  "#/verify-email?": { title: "Confirm your address", screen: (t) => confirmAddressScreen("verify", t) },
  "#/confirm-email?": { title: "Confirm your new address", screen: (t) => confirmAddressScreen("change", t) },
  // Not a mail's link: where a sign-in through the OpenID provider asks for the code (two factors on).
  "#/sign-in-code?": { title: "Two-factor authentication", screen: providerCodeScreen },
};

/** The screen for a fragment no screen has. */
function notFound(fragment: string): Screen {
  const back = currentUser()
    ? h("a", { href: "#/library", class: "button primary" }, "Go to your library")
    : h("a", { href: "#/signin", class: "button primary" }, "Sign in");
  return {
    title: "Not found",
    screen: () =>
      h(
        "section",
        { class: "not-found narrow" },
        h("h1", {}, "Page not found"),
        h("p", {}, "There is no page at this address: ", h("code", {}, fragment), ". It may have moved, or the link may be mistyped."),
        h("p", {}, back),
      ),
  };
}

const app = document.getElementById("app")!;

/** A fragment that names no screen in particular: the start. */
const isStart = (hash: string) => hash === "" || hash === "#" || hash === "#/";

function render() {
  const user = currentUser();
  // Signed in, the instance has an account: what a sign-out leads to is an ordinary sign-in.
  if (user && setup) setup = { hasAccounts: true, firstAccount: null, oidc: setup.oidc };
  const hash = location.hash;
  const link = Object.entries(LINKS).find(([prefix]) => hash.startsWith(prefix));
  if (link) {
    const [prefix, { title, screen }] = link;
    const token = new URLSearchParams(hash.slice(prefix.length)).get("token") ?? "";
    document.title = `${title} · shelf`;
    show(app, header("", [], []), h("main", {}, screen(token)));
    return;
  }
  const inner = user ? prefixed.find((p) => hash.startsWith(p.prefix) && hash.length > p.prefix.length) : undefined;
  const own = user ? { ...mainScreens, ...accountScreens, ...unlisted } : signedOut;
  const start = user ? "#/library" : setup && !setup.hasAccounts ? "#/signup" : "#/signin";
  // Signed out, a signed-in screen asks for a sign-in first; signed in, the sign-in screens lead to the start.
  const elsewhere = user
    ? hash in signedOut
    : hash in mainScreens || hash in accountScreens || hash in unlisted || prefixed.some((p) => hash.startsWith(p.prefix));
  const route = inner || hash in own ? hash : isStart(hash) || elsewhere ? start : hash;
  if (route !== hash) history.replaceState(null, "", route);
  const r: Screen = inner
    ? { title: inner.title, screen: () => inner.screen(route.slice(inner.prefix.length)), nav: inner.nav }
    : (own[route] ?? notFound(route));
  const title = route === "#/signup" && setup && !setup.hasAccounts && setup.firstAccount?.isAdmin ? "Create the owner account" : r.title;
  document.title = `${title} · shelf`;
  const main = Object.entries(mainScreens)
    .filter(([, s]) => !s.admin || user?.isAdmin)
    .map(([href, s]) => ({ href, title: s.title }));
  const account = Object.entries(accountScreens).map(([href, s]) => ({ href, title: s.title }));
  const notice = takeNotice();
  show(app, header(r.nav ?? route, main, account), h("main", {}, notice, r.screen()));
  // A notice is read first: it is what the person has to know about the screen they came to.
  notice?.querySelector("h2")?.focus();
}

/** At start: the session of an earlier visit; without one, whether there is an account to sign in to. */
async function start() {
  if (!(await resume().catch(() => false))) setup = await setupState().catch(() => null);
  render();
}

if (!goToOwnAddress()) {
  window.addEventListener("hashchange", render);
  void start();
}
