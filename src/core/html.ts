// Text put into HTML the server writes (pages, e-mails, oEmbed's <iframe>): every character
// that could end an element, an attribute or a template literal becomes its reference, so
// user text (a title, a path, a nickname) is never markup.
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

export const escapeHtml = (text: string) => text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
