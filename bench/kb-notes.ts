// The notes a sync benchmark pushes: 100 a batch, 2 KiB each, half updates of paths made
// before (with the updatedAt the server gave them) and half new paths.
const FILLER = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ".repeat(30);
const NOTE_BYTES = 2048;

export interface Note {
  path: string;
  content: string;
  hash: string;
  /** The path's updatedAt for an update; undefined for a new path. */
  base?: string;
}

export function noteBatch(prefix: string, known: Map<string, string>, next: () => number, size = 100): Note[] {
  const updates = [...known.entries()].slice(-Math.min(size / 2, known.size));
  const notes: Note[] = updates.map(([path, base]) => ({ path, base, ...text(next()) }));
  while (notes.length < size) notes.push({ path: `${prefix}/n${next()}.md`, ...text(next()) });
  return notes;
}

function text(i: number) {
  const head = `# Note ${i}\n\n`;
  const content = head + FILLER.slice(0, NOTE_BYTES - head.length);
  return { content, hash: new Bun.CryptoHasher("sha256").update(content).digest("hex") };
}
