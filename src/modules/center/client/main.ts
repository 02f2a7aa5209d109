// The dashboard's script: the shell (header, navigation) and a screen per URL fragment.
// Signed-out screens: #/signin, #/signup; signed-in: #/library (the start), #/upload.
import { currentUser, resume, signOut } from "./api.ts";
import { signInScreen, signUpScreen } from "./auth.ts";
import { h, show } from "./dom.ts";
import { libraryScreen } from "./library.ts";
import { uploadScreen } from "./upload.ts";

const signedIn: Record<string, { title: string; screen: () => HTMLElement }> = {
  "#/library": { title: "Library", screen: libraryScreen },
  "#/upload": { title: "Upload", screen: uploadScreen },
};
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
          ...Object.entries(signedIn).map(([href, r]) => h("li", {}, h("a", { href, "aria-current": href === route ? "page" : undefined }, r.title))),
        ),
      )
    : null;
  const out = user
    ? h(
        "div",
        { class: "who" },
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
  const routes = user ? signedIn : signedOut;
  const route = location.hash in routes ? location.hash : user ? "#/library" : "#/signin";
  if (route !== location.hash) history.replaceState(null, "", route);
  const r = routes[route]!;
  document.title = `${r.title} · shelf`;
  show(app, header(route), h("main", {}, r.screen()));
}

window.addEventListener("hashchange", render);
// A session left by an earlier visit (the refresh cookie) signs the person straight in.
void resume().finally(render);
