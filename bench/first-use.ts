// What each library an api node loads at first use costs at that first use (docs/benchmarks.md,
// "Idle memory"): the time of the first call against the second, and the resident memory it
// added, each library in a fresh process so none pays for another.
//
//   bun bench/first-use.ts            (from source: the times include transpiling the library)
import { loadavg } from "node:os";

const which = Bun.argv[2];

if (which) {
  const cases: Record<string, () => Promise<unknown>> = {
    sharp: async () => {
      const { sharp } = await import("../src/infra/sharp.ts");
      return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 1, g: 2, b: 3 } } })
        .webp()
        .toBuffer();
    },
    "markdown-it and yaml": async () => {
      const { readMarkdown } = await import("../src/modules/library/documents/markdown.ts");
      return readMarkdown("---\ntitle: a\n---\n# Title\n\nSome *text* with ![an image](https://example.com/a.png).\n");
    },
    "music-metadata": async () => {
      const mm = await import("music-metadata");
      return mm.parseBuffer(new Uint8Array(1024)).catch(() => null);
    },
    nodemailer: async () => {
      const { createTransport } = await import("nodemailer");
      return createTransport({ jsonTransport: true }).sendMail({ from: "a@example.com", to: "b@example.com", text: "x" });
    },
    "MCP SDK": async () => {
      const [{ createMcpServer }] = await Promise.all([
        import("../src/modules/mcp/server.ts"),
        import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
      ]);
      return createMcpServer;
    },
  };
  const run = cases[which]!;
  Bun.gc(true);
  const rss0 = process.memoryUsage.rss();
  let t = performance.now();
  await run();
  const first = performance.now() - t;
  t = performance.now();
  await run();
  const again = performance.now() - t;
  Bun.gc(true);
  console.log(JSON.stringify({ first, again, mb: (process.memoryUsage.rss() - rss0) / 1024 ** 2 }));
} else {
  console.log(`first use of each library, a fresh process each (load ${loadavg()[0]!.toFixed(2)})`);
  for (const name of ["sharp", "markdown-it and yaml", "music-metadata", "nodemailer", "MCP SDK"]) {
    const proc = Bun.spawn(["bun", import.meta.path, name], { stdout: "pipe", stderr: "inherit" });
    const r = JSON.parse(await new Response(proc.stdout).text()) as { first: number; again: number; mb: number };
    console.log(`    ${name.padEnd(22)} first call ${r.first.toFixed(0).padStart(4)} ms, next ${r.again.toFixed(1)} ms, +${r.mb.toFixed(1)} MB resident`);
  }
}
