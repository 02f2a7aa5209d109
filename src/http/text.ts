// Text a user names things with (nicknames, key names, tags, file names): no control
// characters. Postgres cannot store NUL, and nothing else in that range belongs in a name.
import type { StringOptions } from "@sinclair/typebox";
import { t } from "elysia";

export const NO_CONTROL_CHARS = "^[^\\u0000-\\u001f\\u007f]*$";

export const PlainText = (opts: StringOptions = {}) => t.String({ pattern: NO_CONTROL_CHARS, ...opts });
