// Knowledge bases (#/kbs): the person's KBs, most recently changed first, with the document
// count and size the API keeps for each, a page of the cursor at a time; and a form that
// creates one. A KB's documents arrive through sync clients; its page (#/kbs/<id>) browses them.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { field, h } from "./dom.ts";
import { type Kb, kbFacts, kbHref, when } from "./kb-data.ts";
import { pagedList } from "./paged.ts";

const PAGE_SIZE = 50;

function row(kb: Kb) {
  return h(
    "li",
    { class: "kb-row" },
    h("a", { href: kbHref(kb.id), class: "kb-name" }, kb.name),
    kb.isDefault ? h("span", { class: "badge" }, "default") : null,
    h("span", { class: "meta" }, `${kbFacts(kb)} · changed ${when(kb.updatedAt)}`),
    kb.description ? h("p", { class: "kb-description" }, kb.description) : null,
  );
}

export function kbsScreen() {
  const kbs = pagedList<Answer<"/v1/kbs", "get">>({
    label: "Knowledge bases",
    path: "/v1/kbs",
    params: () => ({ limit: String(PAGE_SIZE) }),
    listClass: "kb-list",
    empty: "No knowledge bases yet. Create one below; sync clients then fill it from a folder.",
    item: row,
    // A KB created while the first page was on its way is listed already.
    key: (kb) => kb.id,
  });

  const error = h("p", { class: "error", role: "alert" });
  const create = h("button", { type: "submit", class: "primary" }, "Create knowledge base");
  const form = h(
    "form",
    { class: "card kb-create", "aria-labelledby": "kb-create-title", novalidate: true },
    h("h2", { id: "kb-create-title" }, "New knowledge base"),
    field("Name", { name: "name", required: true, maxlength: 120, autocomplete: "off" }),
    field(
      "Slug",
      { name: "slug", autocomplete: "off", pattern: "[a-z0-9][a-z0-9-]*[a-z0-9]" },
      "Optional: lower-case letters, digits and dashes. Made from the name when left empty; it cannot change later.",
    ),
    field("Description", { name: "description", maxlength: 500, autocomplete: "off" }, "Optional."),
    error,
    create,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    create.disabled = true;
    const data = new FormData(form);
    const text = (k: string) => String(data.get(k) ?? "").trim();
    try {
      const kb = await call<Answer<"/v1/kbs", "post", 201>>("POST", "/v1/kbs", {
        name: text("name"),
        ...(text("slug") ? { slug: text("slug") } : {}),
        ...(text("description") ? { description: text("description") } : {}),
      });
      kbs.prepend(kb);
      form.reset();
      kbs.status.textContent = `Created “${kb.name}”.`;
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      create.disabled = false;
    }
  });
  return h("section", { class: "kbs" }, h("div", { class: "title-row" }, h("h1", {}, "Knowledge bases")), ...kbs.parts, form);
}
