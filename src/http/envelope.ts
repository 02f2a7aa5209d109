// The two envelopes (docs/api.md), the one pagination shape, and the integer and
// empty-body shapes the models share.
import { type IntegerOptions, Type } from "@sinclair/typebox";
import { Elysia, t, type TSchema } from "elysia";
import { ERROR_CODES, type ErrorCode } from "../core/errors.ts";

/**
 * One of a fixed list of values (`{ type, enum }` in the OpenAPI document). Elysia's own
 * t.UnionEnum gives the schema a default, its first value, which Elysia then fills in for
 * an absent field: a required `decision: approve | deny` left out was taken as "approve",
 * and an optional filter left out as its first value. Every enum of a request or response
 * is this one, which has no default unless the caller names one.
 */
export const Enum: typeof t.UnionEnum = (values, options = {}) => {
  const schema = t.UnionEnum(values, options);
  if (!("default" in options)) delete (schema as { default?: unknown }).default;
  return schema;
};

const ErrorEnvelope = t.Object(
  {
    success: t.Literal(false),
    error: t.String(),
    code: Enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
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

/**
 * An integer of a JSON body or response. Elysia's `t.Integer` also takes a numeric string,
 * as a query string or path needs, and the document then shows `string | integer`; a JSON
 * number is never a string, so bodies and responses use this.
 */
export const Int = (options?: IntegerOptions) => Type.Integer(options);

/** A response without a body (204); the document shows it without content. */
export const NoContent = t.Void({ description: "No Content" });

/** `items` plus `nextCursor` (null on the last page): the one list shape. */
export const Page = <S extends TSchema, E extends Record<string, TSchema> = Record<never, TSchema>>(item: S, extra?: E) =>
  t.Object({ items: t.Array(item), nextCursor: t.Nullable(t.String()), ...(extra ?? ({} as E)) });
