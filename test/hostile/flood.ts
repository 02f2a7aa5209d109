// A separate client process for the hostile suite: sends `count` uploads of `size` bytes
// (junk behind a JPEG signature) at once and prints their statuses and codes as JSON, so
// the test process that measures /health is not the one busy sending 1 GB.
//   bun test/hostile/flood.ts <base-url> <api-key> <count> <size-bytes>
const [base, key, count, size] = process.argv.slice(2);
const junk = new Uint8Array(Number(size));
junk.set([0xff, 0xd8, 0xff, 0xe0]);
const results = await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    const form = new FormData();
    form.append("file", new Blob([junk]), `big-${i}.jpg`);
    const res = await fetch(`${base}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    return { status: res.status, code: ((await res.json()) as { code?: string }).code };
  }),
);
console.log(JSON.stringify(results));
export {};
