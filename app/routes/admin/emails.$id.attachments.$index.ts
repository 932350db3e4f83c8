import { data } from "react-router";
import { parseId } from "#app/domain/ids";
import { getEmail } from "#app/models/email.server";
import type { Route } from "./+types/emails.$id.attachments.$index";

/** Types a browser may open as the file they are; anything else downloads as bytes. */
const SAFE_TYPES = new Set([
  "text/calendar",
  "application/pdf",
  "text/plain",
  "image/png",
  "image/jpeg",
]);

/** An e-mail's attachment (the .ics of a confirmed session), always as a download. */
export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const index = /^\d{1,3}$/.test(params.index) ? Number(params.index) : -1;
  const attachment = id === null ? undefined : getEmail(id)?.attachments?.[index];
  if (!attachment) throw data("Attachment not found", { status: 404 });
  const type = attachment.contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  // Only word characters, dots and dashes reach the header: no quote, newline or path.
  const filename = attachment.filename.replace(/[^\w.-]+/g, "_").slice(0, 100) || "attachment";
  return new Response(Buffer.from(attachment.content, "base64"), {
    headers: {
      "Content-Type": SAFE_TYPES.has(type) ? type : "application/octet-stream",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
