// The load generator, run as its own process so it does not share the server's thread:
//   bun bench/load.ts <url> <seconds> <concurrency> <accept> [bearer key] [JSON body: POSTed]
// Prints {"requests":N,"seconds":S,"bytes":B,"errors":E} on stdout.
export {};

const [url, seconds = "5", concurrency = "32", accept = "image/webp,*/*", bearer = "", body = ""] = Bun.argv.slice(2);
if (!url) throw new Error("usage: bun bench/load.ts <url> [seconds] [concurrency] [accept] [bearer] [body]");
const headers: Record<string, string> = { accept };
if (bearer) headers.authorization = `Bearer ${bearer}`;
if (body) headers["content-type"] = "application/json";
const init: RequestInit = body ? { method: "POST", headers, body } : { headers };
const end = performance.now() + Number(seconds) * 1000;
let requests = 0;
let bytes = 0;
let errors = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (performance.now() < end) {
      const res = await fetch(url, init);
      const body = await res.arrayBuffer();
      if (res.status === 200) {
        requests++;
        bytes += body.byteLength;
      } else errors++;
    }
  }),
);
console.log(JSON.stringify({ requests, seconds: (performance.now() - started) / 1000, bytes, errors }));
