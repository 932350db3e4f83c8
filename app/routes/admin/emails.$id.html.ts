import { data } from "react-router";
import { parseId } from "#app/domain/ids";
import { getEmail } from "#app/models/email.server";
import { SANDBOXED_DOCUMENT_POLICY } from "#app/web/security.server";
import type { Route } from "./+types/emails.$id.html";

/**
 * The stored HTML body of an e-mail, for the preview's iframe. Its policy sandboxes the
 * document (an opaque origin, no script, no forms, no plugins), loads nothing but inline styles
 * and data: images, and lets only our own pages frame it.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const email = id === null ? undefined : getEmail(id);
  if (!email) throw data("E-mail not found", { status: 404 });
  return new Response(email.html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": SANDBOXED_DOCUMENT_POLICY,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
