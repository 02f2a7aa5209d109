// A field the document says is required is required: every operation with a JSON body,
// sent a body that leaves out one required field (at the top, or in the items of an array
// of objects such as sync ops), is 422 VALIDATION_ERROR naming that field (its path, and a
// message that says "<field> is required"). Elysia fills an
// absent field from its schema's default, so a required field with a default is never
// missing: `decision` of POST /v1/oauth/device/verify was, through t.UnionEnum's default,
// "approve" when left out. The document is checked for such fields too.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { testContext } from "../helpers/context.ts";
import { fillPath, type Json, type Operation, newCaller, operations, resolve, sample } from "./no-500-sweep.ts";

setDefaultTimeout(30_000);

const jsonSchema = (o: Operation): Json | undefined => {
  const s = o.op.requestBody?.content?.["application/json"]?.schema;
  return s ? resolve(s) : undefined;
};
const withBody = operations.filter((o) => jsonSchema(o));

/** Every required property of `schema`, at any depth, that carries a default: "where.name". */
function requiredWithDefault(schema: Json, where: string): string[] {
  const s = resolve(schema);
  const out: string[] = [];
  for (const [name, prop] of Object.entries((s.properties ?? {}) as Json)) {
    const p = resolve(prop);
    if ((s.required ?? []).includes(name) && p.default !== undefined) out.push(`${where}.${name}`);
    out.push(...requiredWithDefault(p, `${where}.${name}`));
  }
  if (s.items) out.push(...requiredWithDefault(s.items, `${where}[]`));
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) out.push(...requiredWithDefault(alt, where));
  return out;
}

/** The bodies that each leave out one required field: [the field's path, the body]. */
function bodiesWithout(schema: Json): [string, Json][] {
  const base = sample(schema) as Json;
  const out: [string, Json][] = [];
  for (const name of (schema.required as string[] | undefined) ?? []) {
    const { [name]: _left, ...rest } = base;
    out.push([`body.${name}`, rest]);
  }
  // Arrays of objects (sync ops): each required field of one otherwise sampled item.
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Json)) {
    const items = resolve(resolve(prop).items ?? {});
    if (items.type !== "object") continue;
    const item = sample(items) as Json;
    for (const field of (items.required as string[] | undefined) ?? []) {
      const { [field]: _left, ...rest } = item;
      out.push([`body.${name}.0.${field}`, { ...base, [name]: [rest] }]);
    }
  }
  return out;
}

describe("a required field is required", () => {
  test("no required field of a request, in any operation, has a default", () => {
    const offenders = operations.flatMap((o) => [
      ...(jsonSchema(o) ? requiredWithDefault(jsonSchema(o)!, `${o.method} ${o.path} body`) : []),
      ...((o.op.parameters ?? []) as Json[])
        .map(resolve)
        .filter((p) => p.required && resolve(p.schema ?? {}).default !== undefined)
        .map((p) => `${o.method} ${o.path} ${p.in}.${p.name}`),
    ]);
    expect(offenders).toEqual([]);
  });

  for (const o of withBody) {
    const cases = bodiesWithout(jsonSchema(o)!);
    if (!cases.length) continue;
    test(`${o.method} ${o.path}: each required field left out is 422 naming it`, async () => {
      const { app } = await testContext();
      const caller = await newCaller(o);
      const faults: string[] = [];
      for (const [field, body] of cases) {
        const res = await app.handle(
          new Request(`http://shelf.test${fillPath(o, caller)}`, {
            method: o.method,
            headers: { authorization: `Bearer ${caller.user.jwt}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        );
        const answer = (await res.json()) as Json;
        // The OAuth protocol endpoints answer in RFC 6749's words (a 400 with `error`), not the envelope.
        const refused = o.op["x-rfc6749-errors"]
          ? res.status === 400 && typeof answer.error === "string"
          : res.status === 422 &&
            answer.code === "VALIDATION_ERROR" &&
            // Named in words: "ops.0.path is required", not TypeBox's "Expected string".
            ((answer.meta?.issues ?? []) as Json[]).some((i) => i.path === field && i.message.startsWith(`${field.slice("body.".length)} is required`));
        if (!refused) faults.push(`${field}: ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
      }
      expect(faults).toEqual([]);
    });
  }

  test("the sweep covered the operations with required body fields", () => {
    expect(withBody.filter((o) => bodiesWithout(jsonSchema(o)!).length).length).toBeGreaterThanOrEqual(15);
  });
});
