// Media links inside an imported Markdown text: those at the exporting instance's media
// address (the manifest's instance.mediaUrl) are written with this instance's, and where
// an item came in under a new id, with that id. Anything else in the text stays as it was.

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function rewriteLinks(text: string, from: string, to: string, changed: ReadonlyMap<string, string>): { text: string; count: number } {
  if (!from) return { text, count: 0 };
  let count = 0;
  // The address, then a path up to whatever ends a link in Markdown or HTML.
  const link = new RegExp(`${escapeRegExp(from)}(?=/)((?:/[^\\s)\\]"'<>]*)?)`, "g");
  const out = text.replace(link, (_whole, path: string) => {
    const renamed = path
      .split("/")
      .map((seg) => {
        const dot = seg.indexOf(".");
        const stem = dot < 0 ? seg : seg.slice(0, dot);
        const to = changed.get(stem);
        return to ? to + seg.slice(stem.length) : seg;
      })
      .join("/");
    const next = `${to}${renamed}`;
    if (next !== `${from}${path}`) count++;
    return next;
  });
  return { text: out, count };
}
