// HTML built from templates in which every interpolated value is escaped, unless it is
// markup this module built itself (an Html value). Nothing else reaches a page unescaped.
import { escapeHtml } from "../../../core/html.ts";

/** Markup built by `html`: interpolated as it is. */
export class Html {
  constructor(readonly markup: string) {}
  toString() {
    return this.markup;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(render).join("");
  // false, null and undefined render nothing, so `${cond && html`...`}` reads naturally.
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** A template of markup: the literal parts as written, every value escaped unless it is Html. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}
