// The words of a note a preview shows (Open Graph descriptions of share and published
// pages): its first characters without its frontmatter and Markdown marks.
export function noteExcerpt(text: string): string {
  const plain = text
    .replace(/^---\n[\s\S]*?\n---\n/, "")
    .replace(/[#>*_`~=[\]!|-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > 200 ? `${plain.slice(0, 199)}…` : plain;
}
