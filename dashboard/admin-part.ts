// A part of the admin screen: a card labelled by its heading (a landmark a screen reader lists).
import { h } from "./dom.ts";

export function part(id: string, title: string, ...content: Node[]) {
  return h("section", { class: "card admin-part", "aria-labelledby": id }, h("h2", { id }, title), ...content);
}
