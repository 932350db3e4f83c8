import { adminApiGuard } from "#app/web/user-context.server";
import type { Route } from "./+types/layout";

/**
 * What each admin endpoint answers, by its pattern. Any other method is refused here with 405
 * (and this Allow) before anyone is asked who they are; the endpoints themselves only see the
 * methods listed, from an admin.
 */
const METHODS: Record<string, string> = {
  "api/admin/bookings": "GET",
  "api/admin/bookings/:id": "PUT",
  "api/admin/bookings/:id/files": "POST",
  "api/admin/bookings/:id/files/:uploadId": "HEAD, PATCH, DELETE",
  "api/admin/payments": "GET",
  "api/admin/users": "GET",
  "api/admin/users/:id/make-admin": "PUT",
  "api/admin/users/:id/membership": "PUT",
  "api/admin/coupons": "GET, POST",
  "api/admin/coupons/:id": "PUT",
  "api/admin/coupons/:id/deactivate": "PUT",
  "api/admin/tech-assistance": "GET",
  "api/admin/tech-assistance/:id": "PUT",
};

/** Every /api/admin/* request: the method, then the caller (401 visitor, 403 customer). */
export const middleware: Route.MiddlewareFunction[] = [adminApiGuard(METHODS)];
