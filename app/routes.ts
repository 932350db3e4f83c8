import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  index("routes/home/home.tsx"),
  route("auth", "routes/auth.tsx"),
  route("auth/passkey", "routes/auth.passkey.ts"),
  route("dashboard", "routes/dashboard/layout.tsx", [
    route("sessions/:id", "routes/dashboard/sessions.$id.tsx"),
    route("sessions/:id/pay", "routes/dashboard/sessions.$id.pay.tsx"),
    route("sessions/:id/cancel", "routes/dashboard/sessions.$id.cancel.tsx"),
    route("sessions/:id/reschedule", "routes/dashboard/sessions.$id.reschedule.tsx"),
  ]),
  // Outside the dashboard's layout: a page of its own, for paper.
  route("dashboard/sessions/:id/print", "routes/dashboard/sessions.$id.print.tsx"),
  // Two-factor sign-in's setup, from Profile Settings; staff without it are sent here.
  route("dashboard/two-factor", "routes/dashboard/two-factor.tsx"),
  route("dashboard/passkeys", "routes/dashboard/passkeys.ts"),
  route("logout", "routes/logout.tsx"),
  route("checkout/series/:seriesId", "routes/checkout/series.tsx"),
  route("checkout/:bookingId", "routes/checkout/checkout.tsx"),
  route("booking-success", "routes/booking-success.tsx"),
  route("intercom-test", "routes/intercom-test.tsx"),
  // The control room: one layout, whose guard middleware covers every tab, and one file per tab.
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/index.tsx", { id: "admin-index" }),
    route("dashboard", "routes/admin/index.tsx", { id: "admin-dashboard" }),
    route("bookings", "routes/admin/bookings.tsx"),
    route("sessions", "routes/admin/sessions.tsx"),
    route("sales", "routes/admin/sales.tsx"),
    route("users", "routes/admin/users.tsx"),
    route("coupons", "routes/admin/coupons.tsx"),
    // Add Service, Edit and Delete are dialogs that are URLs, over the list.
    route("services", "routes/admin/services.tsx", [
      route("new", "routes/admin/services.new.tsx"),
      route(":id/edit", "routes/admin/services.$id.edit.tsx"),
      route(":id/delete", "routes/admin/services.$id.delete.tsx"),
    ]),
    route("support", "routes/admin/support.tsx"),
    route("blocked-times", "routes/admin/blocked-times.tsx"),
    route("emails", "routes/admin/emails.tsx"),
    route("bookings/:id", "routes/admin/bookings.$id.tsx"),
    route("emails/:id", "routes/admin/emails.$id.tsx"),
    // The stored HTML, served under its own sandboxing policy for the preview's iframe.
    route("emails/:id/html", "routes/admin/emails.$id.html.ts"),
    route("emails/:id/attachments/:index", "routes/admin/emails.$id.attachments.$index.ts"),
  ]),
  route("admin/sales/export", "routes/admin/sales.export.ts"),
  // A private calendar feed, {token}.ics (docs/product.md "Calendar feeds"); the route checks
  // the .ics ending itself, as a route cannot match a fixed suffix after a parameter.
  route("calendar/:file", "routes/calendar.$file.ts"),
  route("healthz", "routes/healthz.ts"),
  route("healthz/ready", "routes/healthz.ready.ts"),
  ...prefix("api", [
    // The OpenAPI description of every route below (docs/product.md "The JSON API").
    route("openapi.json", "routes/api/openapi.ts"),
    route("user", "routes/api/user.ts"),
    route("login", "routes/api/login.ts"),
    route("register", "routes/api/register.ts"),
    route("logout", "routes/api/logout.ts"),
    route("users/:id/profile", "routes/api/users.profile.ts"),
    route("services", "routes/api/services.ts"),
    route("coupons/validate/:code", "routes/api/coupons.validate.ts"),
    route("availability", "routes/api/availability.ts"),
    route("availability/series", "routes/api/availability.series.ts"),
    route("bookings", "routes/api/bookings.ts"),
    route("bookings/check-conflicts", "routes/api/bookings.check-conflicts.ts"),
    route("bookings/:id/status", "routes/api/bookings.status.ts"),
    route("bookings/:id/cancel", "routes/api/bookings.cancel.ts"),
    route("bookings/:id/reschedule", "routes/api/bookings.reschedule.ts"),
    route("bookings/:id/ics", "routes/api/bookings.ics.ts"),
    route("bookings/:id/payments/direct", "routes/api/bookings.payments-direct.ts"),
    // A payment's receipt or a refund's credit note, as a PDF (docs/product.md "Receipts").
    route("bookings/:id/payments/:paymentId/receipt", "routes/api/bookings.receipt.ts"),
    // Session files: the owner's delivered files, staff's all (docs/product.md "Session files").
    route("bookings/:id/files", "routes/api/bookings.files.ts"),
    route("bookings/:id/files/:fileId", "routes/api/bookings.files.$fileId.ts"),
    // The caller's waitlist (docs/product.md "Waitlist").
    route("waitlist", "routes/api/waitlist.ts"),
    route("waitlist/:id", "routes/api/waitlist.$id.ts"),
    route("payments/status", "routes/api/payments.status.ts"),
    route("payments/webhook", "routes/api/payments.webhook.ts"),
    route("tech-assistance", "routes/api/tech-assistance.ts"),
    // Admin writes outside /api/admin: each guards itself.
    route("services/:id", "routes/api/services.$id.ts"),
    route("services/:id/toggle-status", "routes/api/services.toggle-status.ts"),
    // The admin API: one pathless layout (its guard middleware and the methods of each
    // endpoint) around every /api/admin/* route; it adds no URL of its own.
    layout("routes/api/admin/layout.ts", [
      route("admin/bookings", "routes/api/admin/bookings.ts"),
      route("admin/bookings/:id", "routes/api/admin/bookings.$id.ts"),
      route("admin/bookings/:id/files", "routes/api/admin/bookings.files.ts"),
      route("admin/bookings/:id/files/:uploadId", "routes/api/admin/bookings.files.$uploadId.ts"),
      route("admin/payments", "routes/api/admin/payments.ts"),
      route("admin/users", "routes/api/admin/users.ts"),
      route("admin/users/:id/make-admin", "routes/api/admin/users.make-admin.ts"),
      route("admin/users/:id/membership", "routes/api/admin/users.membership.ts"),
      route("admin/coupons", "routes/api/admin/coupons.ts"),
      route("admin/coupons/:id", "routes/api/admin/coupons.$id.ts"),
      route("admin/coupons/:id/deactivate", "routes/api/admin/coupons.deactivate.ts"),
      route("admin/tech-assistance", "routes/api/admin/tech-assistance.ts"),
      route("admin/tech-assistance/:id", "routes/api/admin/tech-assistance.$id.ts"),
    ]),
  ]),
  // /booking-canceled is specified to show the not-found screen, like any unknown path.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
