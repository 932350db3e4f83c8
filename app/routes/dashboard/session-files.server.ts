import type { CustomerFilesData } from "#app/components/dashboard/session-files";
import { formatStudioInstant } from "#app/domain/booking-display";
import type { BookingStatus } from "#app/domain/booking-status";
import { fileKindLabel, isPlayableAudio, sessionFileUrl } from "#app/domain/session-file-display";
import { canUploadFiles, formatBytes } from "#app/domain/session-files";
import { listBookingFiles } from "#app/models/booking-file.server";
import { db } from "#app/db.server";

const DAY = "MMM d, yyyy";

/**
 * "Your files" on Session Details (docs/product.md "Session files"): the files staff have
 * delivered, never the ones they are still working on, with when each is deleted.
 */
export function customerSessionFiles(booking: {
  id: number;
  status: BookingStatus;
}): CustomerFilesData {
  return {
    // Only once the session is recorded can files come; before that the section says nothing.
    expected: canUploadFiles(booking.status),
    files: listBookingFiles(db, booking.id, { deliveredOnly: true }).map((file) => ({
      id: file.id,
      name: file.name,
      kind: fileKindLabel(file.contentType),
      size: formatBytes(file.size),
      delivered: formatStudioInstant(file.deliveredAt ?? file.createdAt, DAY),
      expires: file.expiresAt === null ? null : formatStudioInstant(file.expiresAt, DAY),
      url: sessionFileUrl(booking.id, file.id),
      playable: isPlayableAudio(file.contentType),
    })),
  };
}
