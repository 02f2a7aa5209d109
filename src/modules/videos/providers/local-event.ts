// The shape of a local provider callback. The signature proves who sent it, not that it is
// well formed: a field of the wrong type must be a 400, never a throw or a half-applied write.
import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../../../core/errors.ts";
import type { ProviderEvent } from "../state.ts";
import { RENDITIONS } from "../table.ts";

const Id = T.String({ minLength: 1, maxLength: 256 });
/**
 * The longest video any plan could hold, with room: a duration past it is not a video's
 * (and 1e308 would overflow the column that keeps it).
 */
export const MAX_DURATION_SECONDS = 1_000_000;
const Key = T.Union([T.String({ minLength: 1, maxLength: 1024 }), T.Null()]);

const LocalEvent = T.Union([
  T.Object({
    id: Id,
    videoId: Id,
    type: T.Literal("ready"),
    result: T.Object({
      durationSeconds: T.Number({ minimum: 0, maximum: MAX_DURATION_SECONDS }),
      renditions: T.Array(T.Union(RENDITIONS.map((r) => T.Literal(r))), { maxItems: RENDITIONS.length }),
      thumbnailKey: Key,
      directKey: Key,
    }),
  }),
  T.Object({ id: Id, videoId: Id, type: T.Literal("failed"), reason: T.String(), dropOriginal: T.Optional(T.Boolean()) }),
  T.Object({ id: Id, videoId: Id, type: T.Literal("progress"), progress: T.Number({ minimum: 0, maximum: 1 }) }),
]);

/** The event in a local callback's body; 400 BAD_REQUEST unless it is JSON of one of the three shapes. */
export function readLocalEvent(raw: string): ProviderEvent {
  let ev: unknown;
  try {
    ev = JSON.parse(raw);
  } catch {
    throw new AppError("BAD_REQUEST", "the callback body is not JSON");
  }
  if (!Value.Check(LocalEvent, ev)) throw new AppError("BAD_REQUEST", "the callback is not a video event");
  return ev as ProviderEvent;
}
