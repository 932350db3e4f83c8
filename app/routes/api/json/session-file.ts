import type { z } from "#app/domain/zod";
import type { BookingFileView } from "#app/models/booking-file.server";
import type * as shape from "#app/routes/api/json/shapes";

const iso = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs).toISOString());

/** A file as GET /api/bookings/{id}/files lists it. */
export function toBookingFileJson(file: BookingFileView): z.infer<typeof shape.sessionFileJson> {
  return {
    id: file.id,
    name: file.name,
    size: file.size,
    contentType: file.contentType,
    createdAt: new Date(file.createdAt).toISOString(),
    deliveredAt: iso(file.deliveredAt),
    expiresAt: iso(file.expiresAt),
    downloadUrl: `/api/bookings/${file.bookingId}/files/${file.id}`,
  };
}
