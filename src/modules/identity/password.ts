// The password rule of every account, however it is made (sign-up, CLI). The request
// models take their length limits from here, so the documented rule and the checked one
// cannot drift apart.
import { validationError } from "../../core/errors.ts";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** 8 to 256 characters and not one character repeated. Throws 422 VALIDATION_ERROR at `path`. */
export function assertPasswordAcceptable(password: string, path = "body.password") {
  if (password.length < PASSWORD_MIN_LENGTH) throw validationError(path, `the password needs at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw validationError(path, `the password may have at most ${PASSWORD_MAX_LENGTH} characters`);
  if (/^(.)\1*$/su.test(password)) throw validationError(path, "the password is too weak");
}

/**
 * Whether `password` is the account's. An account made through an OpenID provider has no
 * password (null) until it sets one with a reset link: nothing matches it.
 */
export const passwordMatches = async (password: string, hash: string | null): Promise<boolean> => hash !== null && (await Bun.password.verify(password, hash));
