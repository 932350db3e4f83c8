import { data } from "react-router";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The posted form of a page action. A body that is not a form (JSON, text, a multipart body
 * cut short or without its boundary) is the client's mistake: it is answered 415 or 400
 * instead of escaping as a server error from `request.formData()`.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type")?.toLowerCase() ?? "";
  if (!FORM_TYPES.some((form) => type.startsWith(form))) {
    throw data("Expected a form post", { status: 415 });
  }
  try {
    return await request.formData();
  } catch {
    throw data("The form could not be read", { status: 400 });
  }
}
