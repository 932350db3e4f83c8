import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import type { AdminFilesData, FileFormReply } from "#app/components/admin/session-files";
import { formatStudioInstant } from "#app/domain/booking-display";
import type { BookingStatus } from "#app/domain/booking-status";
import { STATUS_LABELS } from "#app/domain/booking-status";
import {
  fileKindLabel,
  sessionFileUploadUrl,
  sessionFileUrl,
} from "#app/domain/session-file-display";
import { fileDeleteSchema, fileRenameSchema } from "#app/domain/session-file-forms";
import { Refusal } from "#app/domain/refusal";
import { ALLOWED_FILE_ACCEPT, canUploadFiles, formatBytes } from "#app/domain/session-files";
import { listBookingFiles } from "#app/models/booking-file.server";
import { getBooking } from "#app/models/booking.server";
import type { PublicUser } from "#app/models/user.server";
import { readForm } from "#app/web/form.server";
import { formRefusal } from "#app/web/refusals.server";
import { samePageUrl } from "#app/web/same-page.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import {
  deleteSessionFile,
  deliverSessionFiles,
  renameSessionFile,
  uploadLimits,
} from "#app/workflows/session-files.server";
import { db } from "#app/db.server";

/**
 * The "Files" section of a booking's admin page (docs/product.md "Session files"): what its
 * loader reads, and the page action's three file forms.
 */

const WHEN = "MMM d, yyyy, h:mm a";

/** The intents of the file forms; the page's other forms go to `workflowAction`. */
export const FILE_INTENTS = ["file-rename", "file-delete", "files-deliver"] as const;
type FileIntent = (typeof FILE_INTENTS)[number];

export function adminSessionFiles(booking: { id: number; status: BookingStatus }): AdminFilesData {
  const files = listBookingFiles(db, booking.id, { deliveredOnly: false });
  const limits = uploadLimits();
  return {
    bookingId: booking.id,
    files: files.map((file) => ({
      id: file.id,
      name: file.name,
      kind: fileKindLabel(file.contentType),
      size: formatBytes(file.size),
      uploaded: formatStudioInstant(file.createdAt, WHEN),
      delivered: file.deliveredAt === null ? null : formatStudioInstant(file.deliveredAt, WHEN),
      expires: file.expiresAt === null ? null : formatStudioInstant(file.expiresAt, WHEN),
      downloadUrl: sessionFileUrl(booking.id, file.id),
    })),
    undelivered: files.filter((file) => file.deliveredAt === null).length,
    upload: canUploadFiles(booking.status)
      ? {
          allowed: true,
          url: sessionFileUploadUrl(booking.id),
          accept: ALLOWED_FILE_ACCEPT,
          formLimit: formatBytes(limits.formBytes),
          fileLimit: formatBytes(limits.tusBytes),
          maxFileBytes: limits.tusBytes,
        }
      : { allowed: false, reason: uploadBlockedReason(booking.status) },
  };
}

/** Why this booking takes no files, in the words of docs/product.md "Session files". */
function uploadBlockedReason(status: BookingStatus): string {
  if (status === "CANCELLED") {
    return "This booking is cancelled, so no new files can be added. Files already here stay until they are deleted.";
  }
  return `Files can be added once the session is recorded. This booking is ${STATUS_LABELS[status]}: mark it Recorded first.`;
}

/** Whether the posted form is one of the file forms (read from a copy: the body stays unread). */
export async function isFileForm(request: Request): Promise<boolean> {
  const type = request.headers.get("Content-Type")?.toLowerCase() ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/")) {
    return false;
  }
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const intent = form?.get("intent");
  return typeof intent === "string" && (FILE_INTENTS as readonly string[]).includes(intent);
}

/**
 * The file forms of a booking's page. Success goes back to the page with a toast (post,
 * redirect, get); a refusal re-renders it with the error toast and the reason at the form,
 * and changes nothing.
 */
export async function sessionFilesAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  admin: PublicUser,
  bookingId: number,
) {
  const formData = await readForm(request);
  if (!getBooking(db, bookingId)) throw data("Booking not found", { status: 404 });
  const intent = formData.get("intent") as FileIntent;
  const fail = (
    title: string,
    message: string,
    fileId: number | null,
    status: number,
    result?: FileFormReply["result"],
  ) =>
    replyWithToast<FileFormReply>(
      context,
      formData,
      { intent, fileId, message, ...(result ? { result } : {}) },
      { type: "error", message: title, description: message },
      { status },
    );
  const back = samePageUrl(request);

  if (intent === "file-rename") {
    const submission = parseWithZod(formData, { schema: fileRenameSchema });
    const postedId = Number(formData.get("fileId")) || null;
    if (submission.status !== "success") {
      const error = submission.error ?? {};
      const message = error.fileId?.[0] ?? error.name?.[0] ?? "Please enter a file name";
      return fail("File not renamed", message, postedId, 400, submission.reply());
    }
    const { fileId, name } = submission.value;
    try {
      renameSessionFile({ bookingId, fileId, name, actorId: admin.id });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return fail(
        "File not renamed",
        error.message,
        fileId,
        formRefusal(error).init.status,
        submission.reply({ fieldErrors: { name: [error.message] } }),
      );
    }
    return redirectWithSuccess(back, {
      message: "File renamed",
      description: `Now named ${name}.`,
    });
  }

  if (intent === "file-delete") {
    const submission = parseWithZod(formData, { schema: fileDeleteSchema });
    if (submission.status !== "success") {
      const message = submission.error?.fileId?.[0] ?? "That file does not exist.";
      return fail("File not deleted", message, null, 400);
    }
    const { fileId } = submission.value;
    const name = listBookingFiles(db, bookingId, { deliveredOnly: false }).find(
      (file) => file.id === fileId,
    )?.name;
    try {
      const outcome = await deleteSessionFile({ bookingId, fileId, actorId: admin.id });
      if (!outcome.ok) return fail("File not deleted", outcome.message, fileId, 400);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return fail("File not deleted", error.message, fileId, formRefusal(error).init.status);
    }
    return redirectWithSuccess(back, {
      message: "File deleted",
      description: name ? `${name} was deleted.` : "The file was deleted.",
    });
  }

  let delivered: number;
  try {
    delivered = deliverSessionFiles({ bookingId, actorId: admin.id });
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return fail("Files not delivered", error.message, null, formRefusal(error).init.status);
  }
  return redirectWithSuccess(back, {
    message: "Files delivered",
    description: `${delivered === 1 ? "1 file was" : `${delivered} files were`} delivered; the client was e-mailed that they are ready.`,
  });
}
