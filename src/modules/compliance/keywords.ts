// Keyword search over a document's whole text. Text and keywords are compared after the
// same normalisation, so look-alike spellings match: NFKC (full-width letters, ligatures,
// compatibility forms), lower case, invisible characters (zero-width spaces and joiners,
// soft hyphens) removed, and every run of white space made one space, so a phrase broken
// across lines still matches. One pass over the text finds every keyword at once
// (Aho-Corasick), so a long list costs no more per document than a short one.

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const SPACES = /\s+/gu;

function normalizeText(text: string): string {
  return text.normalize("NFKC").toLowerCase().normalize("NFKC").replace(INVISIBLE, "").replace(SPACES, " ");
}

interface Node {
  next: Map<string, Node>;
  fail: Node | null;
  /** A keyword ends here, or at a node its failure links reach. */
  hit: boolean;
}

const node = (): Node => ({ next: new Map(), fail: null, hit: false });

export interface KeywordMatcher {
  readonly size: number;
  /** Whether the text holds any keyword. */
  test(text: string): boolean;
}

/** A matcher for `keywords` (normalised here; empty ones dropped). */
export function keywordMatcher(keywords: readonly string[]): KeywordMatcher {
  const root = node();
  const words = new Set(keywords.map((k) => normalizeText(k).trim()).filter(Boolean));
  for (const word of words) {
    let at = root;
    for (const ch of word) {
      let n = at.next.get(ch);
      if (!n) at.next.set(ch, (n = node()));
      at = n;
    }
    at.hit = true;
  }
  // Failure links, breadth first: the longest proper suffix that is also a prefix.
  const queue: Node[] = [];
  for (const child of root.next.values()) {
    child.fail = root;
    queue.push(child);
  }
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    for (const [ch, child] of at.next) {
      let f = at.fail;
      while (f && !f.next.has(ch)) f = f.fail;
      child.fail = f ? f.next.get(ch)! : root;
      child.hit ||= child.fail.hit;
      queue.push(child);
    }
  }
  return {
    size: words.size,
    test(text) {
      if (!words.size) return false;
      let at = root;
      for (const ch of normalizeText(text)) {
        while (at !== root && !at.next.has(ch)) at = at.fail!;
        at = at.next.get(ch) ?? root;
        if (at.hit) return true;
      }
      return false;
    },
  };
}
