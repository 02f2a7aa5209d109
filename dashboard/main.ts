// The dashboard's script: the shell (header, navigation) and a screen per URL fragment.
// Signed-out screens: #/signin, #/signup; signed-in: #/library (the start), #/upload, #/kbs,
// #/usage, #/keys, #/apps, #/account, #/admin (in the nav for admins only), and #/notifications
// (reached from the header's count).
// A screen that shows one thing takes its address after a prefix: #/kbs/<id>/<path...>.
import { accountScreen } from "./account.ts";
import { goToOwnAddress } from "./address.ts";
import { adminScreen } from "./admin.ts";
import { currentUser, resume, signOut } from "./api.ts";
import { appsScreen } from "./apps.ts";
import { signInScreen, signUpScreen } from "./auth.ts";
import { h, show } from "./dom.ts";
import { conflictsScreen } from "./conflicts.ts";
import { historyScreen } from "./history.ts";
import { kbScreen } from "./kb-tree.ts";
import { kbsScreen } from "./kbs.ts";
import { keysScreen } from "./keys.ts";
import { libraryScreen } from "./library.ts";
import { notificationsScreen } from "./notifications.ts";
import { unreadLink } from "./unread.ts";
import { uploadScreen } from "./upload.ts";
import { usageScreen } from "./usage.ts";

const signedIn: Record<string, { title: string; screen: () => HTMLElement; admin?: true }> = {
  "#/library": { title: "Library", screen: libraryScreen },
  "#/upload": { title: "Upload", screen: uploadScreen },
  "#/kbs": { title: "Knowledge bases", screen: kbsScreen },
  "#/usage": { title: "Usage", screen: usageScreen },
  "#/keys": { title: "API keys", screen: keysScreen },
  "#/apps": { title: "Authorized apps", screen: appsScreen },
  "#/account": { title: "Account", screen: accountScreen },
  "#/admin": { title: "Admin", screen: adminScreen, admin: true },
};
/** Signed-in screens that are not in the navigation (the header links to them otherwise). */
const unlisted: Record<string, { title: string; screen: () => HTMLElement }> = {
  "#/notifications": { title: "Notifications", screen: notificationsScreen },
};
/** Signed-in screens of one thing: the fragment's rest after the prefix is the screen's argument. */
const prefixed: { prefix: string; title: string; nav: string; screen: (rest: string) => HTMLElement }[] = [
  { prefix: "#/kbs/", title: "Knowledge base", nav: "#/kbs", screen: kbScreen },
  { prefix: "#/history/", title: "History", nav: "#/kbs", screen: historyScreen },
  { prefix: "#/conflicts/", title: "Conflicts", nav: "#/kbs", screen: conflictsScreen },
];
const signedOut: Record<string, { title: string; screen: () => HTMLElement }> = {
  "#/signin": { title: "Sign in", screen: signInScreen },
  "#/signup": { title: "Create your account", screen: signUpScreen },
};

const app = document.getElementById("app")!;

function header(route: string) {
  const user = currentUser();
  const nav = user
    ? h(
        "nav",
        { "aria-label": "Main" },
        h(
          "ul",
          {},
          ...Object.entries(signedIn)
            .filter(([, r]) => !r.admin || user.isAdmin)
            .map(([href, r]) => h("li", {}, h("a", { href, "aria-current": href === route ? "page" : undefined }, r.title))),
        ),
      )
    : null;
  const out = user
    ? h(
        "div",
        { class: "who" },
        unreadLink(route === "#/notifications"),
        h("span", { class: "user" }, user.nickname || user.email),
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: async () => {
              await signOut();
              location.hash = "#/signin";
            },
          },
          "Sign out",
        ),
      )
    : null;
  return h("header", { class: "top" }, h("a", { href: "#/library", class: "brand" }, "shelf"), nav, out);
}

function render() {
  const user = currentUser();
  const routes = user ? { ...signedIn, ...unlisted } : signedOut;
  const inner = user ? prefixed.find((p) => location.hash.startsWith(p.prefix) && location.hash.length > p.prefix.length) : undefined;
  const route = inner || location.hash in routes ? location.hash : user ? "#/library" : "#/signin";
  if (route !== location.hash) history.replaceState(null, "", route);
  const r = inner ? { title: inner.title, screen: () => inner.screen(route.slice(inner.prefix.length)) } : routes[route]!;
  document.title = `${r.title} · shelf`;
  show(app, header(inner ? inner.nav : route), h("main", {}, r.screen()));
}

if (!goToOwnAddress()) {
  window.addEventListener("hashchange", render);
  // A session left by an earlier visit (the refresh cookie) signs the person straight in.
  void resume().finally(render);
}
