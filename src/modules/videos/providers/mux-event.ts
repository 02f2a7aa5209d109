// The fields of a Mux asset event this adapter reads, checked before any is used: the
// signature proves Mux sent it, not that every field has the documented type, and a
// field of another type must be a 400, never a throw or a half-applied write.
import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../../../core/errors.ts";
import { MAX_DURATION_SECONDS } from "./local-event.ts";

const Maybe = <S extends Parameters<typeof T.Union>[0][number]>(s: S) => T.Optional(T.Union([s, T.Null()]));

const MuxAssetData = T.Object({
  id: T.String({ minLength: 1, maxLength: 256 }),
  status: Maybe(T.String()),
  duration: Maybe(T.Number({ minimum: 0, maximum: MAX_DURATION_SECONDS })),
  passthrough: Maybe(T.String({ maxLength: 256 })),
  max_stored_resolution: Maybe(T.String()),
  errors: Maybe(T.Object({ messages: Maybe(T.Array(T.String())) })),
  playback_ids: Maybe(T.Array(T.Object({ id: Maybe(T.String({ maxLength: 256 })) }))),
});

/** Throws 400 BAD_REQUEST unless an asset event's `data` has the documented types. */
export function checkMuxAssetData(data: unknown): void {
  if (!Value.Check(MuxAssetData, data)) throw new AppError("BAD_REQUEST", "the callback's asset does not have the documented fields");
}
