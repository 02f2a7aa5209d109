// Never a 500 (docs/security.md): every operation of the OpenAPI document, fed bad path
// parameters and bad query parameters, answers below 500, and every error is the envelope
// with a documented code. JSON and multipart bodies are swept in no-500-bodies.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { authorizeQuery, pkce } from "../oauth/authorize-steps.ts";
import { BAD_ESCAPES, type BadRequest, fillPath, operations, optionalAuth, params, sweep } from "./no-500-sweep.ts";

// Each test sends dozens to hundreds of requests (uploads among them): on a busy CI
// machine that takes far longer than the default 5 s per test.
setDefaultTimeout(30_000);

/** Path segments already percent-encoded as a client would send them. */
const BAD_SEGMENTS: [string, string][] = [
  ["id of another length", "abcdefghij"],
  ["300 characters", "a".repeat(300)],
  ["encoded traversal", "%2F..%2F"],
  ["emoji", encodeURIComponent("🦄🦄")],
  ["dot-dot", ".."],
  ...BAD_ESCAPES,
];

/** What every query value and header is sent besides its own oddities. */
const BAD_SCALARS: [string, string][] = [
  ["empty", ""],
  ["5000 characters", "x".repeat(5000)],
  ["-1", "-1"],
  ["1e309", "1e309"],
];

const BAD_QUERY_VALUES: [string, string][] = [
  ...BAD_SCALARS,
  ["2**63", "9223372036854775808"],
  ["[object]", encodeURIComponent("[object Object]")],
  ["SQL, LIKE and tsquery syntax", encodeURIComponent(`' \\ % _ & | ! ( ) :* <-> " ;--`)],
  ["regex syntax", encodeURIComponent("(a+)+$[")],
  ...BAD_ESCAPES,
];

const BAD_HEADER_VALUES: [string, string][] = [
  ...BAD_SCALARS,
  ["2**64 range", "bytes=18446744073709551616-"],
  ["suffix range of 0", "bytes=-0"],
  ["backwards range", "bytes=5-1"],
  [
    "many ranges",
    Array.from({ length: 200 }, (_, i) => `${i}-${i}`)
      .join(",")
      .replace(/^/, "bytes="),
  ],
  ["wildcard", "*"],
  ["weak tag", 'W/"x", "y", *'],
  ["Latin-1", "caf\u00e9"],
  ["date", "Thu, 01 Jan 1970 00:00:00 GMT"],
];

/** Headers a route reads without declaring them as parameters. */
const readHeaders = (o: { path: string }) => (o.path.startsWith("/v1/kbs/{id}") ? ["service-sync-version"] : []);

/** Cursors in the codec's own encoding whose parts are the wrong kind or out of any column's range. */
const cursor = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString("base64url");
const FORGED_CURSORS: [string, string][] = [
  ["number key 1e300", cursor([1e300, "abcdefghijklmnopqrstu"])],
  ["number key 2**63", cursor([2 ** 63, "abcdefghijklmnopqrstu"])],
  ["fractional key", cursor([1.5, "abcdefghijklmnopqrstu"])],
  ["negative key", cursor([-1, "abcdefghijklmnopqrstu"])],
  ["date key", cursor(["2026-01-01T00:00:00.000Z", "abcdefghijklmnopqrstu"])],
  ["far date key", cursor(["9999-12-31T23:59:59.999Z", "abcdefghijklmnopqrstu"])],
  ["string key", cursor(["zzz", "abcdefghijklmnopqrstu"])],
  ["lone surrogate", cursor(["\ud800", "\udfff"])],
  ["numbers only", cursor([1, 2])],
  ["one part", cursor(["abcdefghijklmnopqrstu"])],
  ["three parts", cursor([1, "2026-01-01T00:00:00.000Z", "abcdefghijklmnopqrstu"])],
  ["object", cursor({ a: 1 })],
  ["not base64", "!!!"],
  ["513 characters", "A".repeat(513)],
];

let total = 0;

describe("bad path parameters never answer 5xx", () => {
  for (const o of operations.filter((o) => o.path.includes("{"))) {
    test(`${o.method} ${o.path}`, async () => {
      total += await sweep(o, (c) =>
        params(o, "path").flatMap((p): BadRequest[] =>
          BAD_SEGMENTS.flatMap(([input, value]) => {
            const path = fillPath(o, c, { [p.name]: value });
            const req = { input: `${p.name}: ${input}`, path };
            return optionalAuth(o) ? [req, { ...req, input: `${req.input}, no credential`, anonymous: true }] : [req];
          }),
        ),
      );
    });
  }
});

describe("bad query parameters never answer 5xx", () => {
  for (const o of operations) {
    test(`${o.method} ${o.path}`, async () => {
      total += await sweep(o, (c) => {
        const base = fillPath(o, c);
        const reqs: BadRequest[] = [{ input: "unknown parameter", path: `${base}?zzz=1&__proto__=1&constructor=x` }];
        for (const p of params(o, "query")) {
          for (const [input, value] of BAD_QUERY_VALUES) reqs.push({ input: `${p.name}: ${input}`, path: `${base}?${p.name}=${value}` });
          reqs.push({ input: `${p.name}: repeated`, path: `${base}?${p.name}=1&${p.name}=2` });
          reqs.push({ input: `${p.name}: bracketed`, path: `${base}?${p.name}[a]=1` });
          reqs.push({ input: `${p.name}: lone percent`, path: `${base}?${p.name}=%&${p.name}%zz=%zz` });
        }
        return optionalAuth(o) ? reqs.flatMap((r) => [r, { ...r, input: `${r.input}, no credential`, anonymous: true }]) : reqs;
      });
    });
  }
});

/** Routes whose checks a lone bad parameter stops at the first: swept with one bad parameter in an otherwise valid query. */
const VALID_QUERIES: Record<string, Record<string, string>> = {
  "GET /oauth/authorize": authorizeQuery(pkce().challenge, { redirect_uri: "http://127.0.0.1:43817/oauth/callback", scope: "docs:read" }),
};

describe("one bad parameter in an otherwise valid query never answers 5xx", () => {
  for (const o of operations.filter((o) => VALID_QUERIES[`${o.method} ${o.path}`])) {
    test(`${o.method} ${o.path}`, async () => {
      const valid = VALID_QUERIES[`${o.method} ${o.path}`]!;
      total += await sweep(o, (c) => {
        const reqs: BadRequest[] = [{ input: "valid", path: `${fillPath(o, c)}?${new URLSearchParams(valid)}` }];
        for (const name of Object.keys(valid)) {
          const rest = new URLSearchParams(Object.entries(valid).filter(([k]) => k !== name)).toString();
          for (const [input, value] of BAD_QUERY_VALUES) reqs.push({ input: `${name}: ${input}`, path: `${fillPath(o, c)}?${rest}&${name}=${value}` });
          reqs.push({ input: `${name}: repeated`, path: `${fillPath(o, c)}?${rest}&${name}=${encodeURIComponent(valid[name]!)}&${name}=x` });
        }
        return reqs.flatMap((r) => [r, { ...r, input: `${r.input}, no credential`, anonymous: true }]);
      });
    });
  }
});

describe("forged cursors never answer 5xx, under every sort order", () => {
  for (const o of operations.filter((o) => params(o, "query").some((p) => p.name === "cursor"))) {
    test(`${o.method} ${o.path}`, async () => {
      const sorts: (string | undefined)[] = params(o, "query").find((p) => p.name === "sort")?.schema?.enum ?? [undefined];
      total += await sweep(o, (c) =>
        sorts.flatMap((sort) =>
          FORGED_CURSORS.map(
            ([input, value]): BadRequest => ({
              input: `cursor: ${input}${sort ? `, sort ${sort}` : ""}`,
              path: `${fillPath(o, c)}?cursor=${value}${sort ? `&sort=${sort}` : ""}`,
            }),
          ),
        ),
      );
    });
  }
});

describe("bad request headers never answer 5xx", () => {
  for (const o of operations.filter((o) => params(o, "header").length > 0 || readHeaders(o).length > 0)) {
    test(`${o.method} ${o.path}`, async () => {
      total += await sweep(o, (c) => {
        const path = fillPath(o, c);
        const names = [...params(o, "header").map((p) => p.name as string), ...readHeaders(o)];
        const reqs = names.flatMap((name) =>
          BAD_HEADER_VALUES.map(([input, value]): BadRequest => ({ input: `${name}: ${input}`, path, headers: { [name]: value } })),
        );
        return optionalAuth(o) ? reqs.flatMap((r) => [r, { ...r, input: `${r.input}, no credential`, anonymous: true }]) : reqs;
      });
    });
  }
});

describe("undeclared methods and unknown paths never answer 5xx", () => {
  const paths = [...new Set(operations.map((o) => o.path))];
  for (const path of paths) {
    const declared = new Set(operations.filter((o) => o.path === path).map((o) => o.method));
    const others = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((m) => !declared.has(m));
    test(`${path}: ${others.join(", ")}`, async () => {
      const template = operations.find((o) => o.path === path)!;
      for (const method of others) {
        // The caller and its resources are the declared operation's; the method is not.
        total += await sweep({ ...template, method }, (c) => [
          {
            input: `undeclared ${method}`,
            path: fillPath(template, c),
            headers: { "content-type": "application/json" },
            body: method === "GET" || method === "OPTIONS" ? undefined : "{}",
          },
        ]);
      }
    });
  }
  test("unknown paths", async () => {
    const unknown = { method: "GET", path: "/v1/zzz", op: { responses: {} } };
    for (const path of ["/v1/zzz", "/v1/images/x/y/z", "/%00", "/v1/%C3%28", `/${"a".repeat(5000)}`, "/media/", "/media/v/", "/.env", "/v1/docs/raw:batch/x"])
      total += await sweep(unknown, () => [{ input: "unknown path", path }]);
  });
});

test("the sweep covered every operation", () => {
  expect(operations.length).toBeGreaterThan(80);
  // The count is printed for the record of what the sweep sent.
  console.info(`no-500 path and query sweep: ${operations.length} operations, ${total} requests`);
});
