// The two envelopes of SPEC section 1 and the one pagination shape.
import { Elysia, t, type TSchema } from "elysia";
import { ERROR_CODES, type ErrorCode } from "./errors.ts";

export const ErrorEnvelope = t.Object(
  {
    success: t.Literal(false),
    error: t.String(),
    code: t.UnionEnum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
    meta: t.Record(t.String(), t.Unknown()),
  },
  { title: "Error" },
);

/** Registers the shared models by name, so routes reference them ("Error") and the
 * OpenAPI document lists each once under components.schemas. */
export const sharedModels = new Elysia({ name: "shared-models" }).model({ Error: ErrorEnvelope });

export const Ok = <S extends TSchema>(data: S) => t.Object({ success: t.Literal(true), data });
/** The success envelope a handler returns (`Ok(schema)` is its schema). */
export const ok = <T>(data: T) => ({ success: true as const, data });

/** `items` plus `nextCursor` (null on the last page): the one list shape. */
export const Page = <S extends TSchema, E extends Record<string, TSchema> = {}>(item: S, extra?: E) =>
  t.Object({ items: t.Array(item), nextCursor: t.Nullable(t.String()), ...(extra ?? ({} as E)) });
