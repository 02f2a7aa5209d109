// The fields of a page's form post: application/x-www-form-urlencoded as browsers send it,
// read by the OAuth parameter reader (its size limit, strict UTF-8, no field given twice).
import { AppError } from "../../../core/errors.ts";
import { OAuthError } from "../errors.ts";
import { oauthParams } from "../form.ts";

const FORM_TYPE = "application/x-www-form-urlencoded";

/** 400 BAD_REQUEST for a body that is not a well-formed form. */
export async function readPageForm(request: Request): Promise<Record<string, string>> {
  const type = (request.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (type !== FORM_TYPE) throw new AppError("BAD_REQUEST", "send the page's form", { reason: "form" });
  try {
    return await oauthParams(request);
  } catch (e) {
    if (e instanceof OAuthError) {
      // Said to a person: no form of these pages comes near the limit.
      const message =
        e.errorCode === "FILE_TOO_LARGE" ? "This form is far larger than the page sends. Open the page again and send it from there." : e.description;
      throw new AppError("BAD_REQUEST", message, { reason: "form" }, e.headers);
    }
    throw e;
  }
}
