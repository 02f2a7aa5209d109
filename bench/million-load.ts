// The load generator of (y), its own process so it does not share a node's thread:
//   bun bench/million-load.ts '{"url","key","seconds","concurrency","headers"}'
// Each connection GETs the URL over and over (API key Bearer, the default headers and any
// given), timing each answer. Prints {"count","seconds","latencies":[ms...],"errors"}.
export {};

const o = JSON.parse(Bun.argv[2]!) as { url: string; key: string; seconds: number; concurrency: number; headers?: Record<string, string> };
const headers = { authorization: `Bearer ${o.key}`, ...o.headers };
const end = performance.now() + o.seconds * 1000;
const latencies: number[] = [];
let errors = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: o.concurrency }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const res = await fetch(o.url, { headers });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status !== 200) errors++;
    }
  }),
);
console.log(JSON.stringify({ count: latencies.length, seconds: (performance.now() - started) / 1000, latencies, errors }));
