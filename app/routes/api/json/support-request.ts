import type { z } from "#app/domain/zod";
import type { OwnSupportRequest } from "#app/models/support.server";
import type * as shape from "#app/routes/api/json/shapes";

type RequestRow = Omit<OwnSupportRequest, "bookingStartsAt">;

/** A request as the JSON API shows it: the fields of docs/product.md "Data" with ISO instants. */
export function toSupportRequestJson(
  request: RequestRow,
): z.infer<typeof shape.supportRequestJson> {
  return {
    id: request.id,
    userId: request.userId,
    bookingId: request.bookingId,
    name: request.name,
    email: request.email,
    phoneNumber: request.phoneNumber,
    issueType: request.issueType,
    description: request.description,
    preferredContactMethod: request.preferredContactMethod,
    status: request.status,
    createdAt: new Date(request.createdAt).toISOString(),
    resolvedAt: request.resolvedAt === null ? null : new Date(request.resolvedAt).toISOString(),
    resolution: request.resolution,
  };
}
