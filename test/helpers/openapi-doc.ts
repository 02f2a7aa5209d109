// The app's generated OpenAPI document as the tests that walk its operations read it, and
// the one way they follow its `$ref`s.
import { callJson } from "./context.ts";

export type Json = Record<string, any>;

export const doc = (await callJson("GET", "/swagger/json")).body as Json;

/** The HTTP methods an OpenAPI path item may hold an operation under. */
export const METHODS = ["get", "put", "post", "delete", "patch", "head"];

/** A schema, parameter or response with its `$ref` (and the one that points at) followed. */
export const resolve = (node: Json): Json =>
  node?.$ref
    ? resolve(
        (node.$ref as string)
          .slice(2)
          .split("/")
          .reduce((at: Json, k) => at[k], doc),
      )
    : node;
