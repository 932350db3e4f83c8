import { createDocument, type ZodOpenApiObject } from "zod-openapi";
import { z } from "#app/domain/zod";
import { answers, type ApiOperation, type ApiPaths, WRITE_REFUSALS } from "#app/web/api-doc";
import { allowOf } from "#app/web/api.server";
import * as adminBookingsId from "#app/routes/api/admin/bookings.$id";
import * as adminBookings from "#app/routes/api/admin/bookings";
import * as adminBookingFiles from "#app/routes/api/admin/bookings.files";
import * as adminBookingUpload from "#app/routes/api/admin/bookings.files.$uploadId";
import * as adminCouponsId from "#app/routes/api/admin/coupons.$id";
import * as adminCouponsDeactivate from "#app/routes/api/admin/coupons.deactivate";
import * as adminCoupons from "#app/routes/api/admin/coupons";
import * as adminPayments from "#app/routes/api/admin/payments";
import * as adminSupportId from "#app/routes/api/admin/tech-assistance.$id";
import * as adminSupport from "#app/routes/api/admin/tech-assistance";
import * as adminUsersMakeAdmin from "#app/routes/api/admin/users.make-admin";
import * as adminUsersMembership from "#app/routes/api/admin/users.membership";
import * as adminUsers from "#app/routes/api/admin/users";
import * as availability from "#app/routes/api/availability";
import * as availabilitySeries from "#app/routes/api/availability.series";
import * as bookingsCancel from "#app/routes/api/bookings.cancel";
import * as bookingsCheckConflicts from "#app/routes/api/bookings.check-conflicts";
import * as bookingsIcs from "#app/routes/api/bookings.ics";
import * as bookingsFiles from "#app/routes/api/bookings.files";
import * as bookingsFile from "#app/routes/api/bookings.files.$fileId";
import * as bookingsPaymentsDirect from "#app/routes/api/bookings.payments-direct";
import * as bookingsReceipt from "#app/routes/api/bookings.receipt";
import * as bookingsReschedule from "#app/routes/api/bookings.reschedule";
import * as bookingsStatus from "#app/routes/api/bookings.status";
import * as bookings from "#app/routes/api/bookings";
import * as couponsValidate from "#app/routes/api/coupons.validate";
import * as login from "#app/routes/api/login";
import * as logout from "#app/routes/api/logout";
import * as paymentsStatus from "#app/routes/api/payments.status";
import * as paymentsWebhook from "#app/routes/api/payments.webhook";
import * as register from "#app/routes/api/register";
import * as servicesId from "#app/routes/api/services.$id";
import * as servicesToggleStatus from "#app/routes/api/services.toggle-status";
import * as services from "#app/routes/api/services";
import * as techAssistance from "#app/routes/api/tech-assistance";
import * as user from "#app/routes/api/user";
import * as usersProfile from "#app/routes/api/users.profile";
import * as waitlistEntry from "#app/routes/api/waitlist.$id";
import * as waitlist from "#app/routes/api/waitlist";

/**
 * The OpenAPI 3.1 document of the JSON API (docs/product.md "The JSON API"), served at
 * /api/openapi.json. Each route module describes its own paths in its exported `openapi`
 * (docs/decisions/0086); this module only gathers them, adds what every write can answer
 * before its route runs, and has zod-openapi turn the zod schemas into JSON Schema. A route
 * missing here fails tests/routes/openapi.test.ts.
 */
/** /api/openapi.json itself, described here: its route module serves this one. */
export const OWN_PATH: ApiPaths = {
  "/api/openapi.json": {
    get: {
      summary: "This document",
      responses: {
        200: answers("The OpenAPI 3.1 document", z.looseObject({ openapi: z.literal("3.1.0") })),
      },
    },
  },
};

const ROUTE_MODULES: { openapi: ApiPaths }[] = [
  user,
  login,
  register,
  logout,
  usersProfile,
  services,
  couponsValidate,
  availability,
  availabilitySeries,
  bookings,
  bookingsCheckConflicts,
  bookingsStatus,
  bookingsCancel,
  waitlist,
  waitlistEntry,
  bookingsReschedule,
  bookingsIcs,
  bookingsPaymentsDirect,
  bookingsReceipt,
  bookingsFiles,
  bookingsFile,
  paymentsStatus,
  paymentsWebhook,
  techAssistance,
  servicesId,
  servicesToggleStatus,
  adminBookings,
  adminBookingsId,
  adminBookingFiles,
  adminBookingUpload,
  adminPayments,
  adminUsers,
  adminUsersMakeAdmin,
  adminUsersMembership,
  adminCoupons,
  adminCouponsId,
  adminCouponsDeactivate,
  adminSupport,
  adminSupportId,
  { openapi: OWN_PATH },
];

const WRITES = ["post", "put", "patch", "delete"] as const;

/** Every path of the API with its operations, as zod schemas (the contract tests read these). */
export function apiPaths(): ApiPaths {
  const paths: ApiPaths = {};
  for (const module of ROUTE_MODULES) {
    for (const [path, item] of Object.entries(module.openapi)) {
      if (paths[path]) throw new Error(`${path} is described twice`);
      const withRefusals = { ...item };
      for (const method of WRITES) {
        const operation: ApiOperation | undefined = item[method];
        if (!operation) continue;
        withRefusals[method] = {
          ...operation,
          responses: { ...WRITE_REFUSALS, ...operation.responses },
        };
      }
      paths[path] = withRefusals;
    }
  }
  return paths;
}

/**
 * The methods each endpoint answers, by its route pattern ("api/admin/bookings/:id"): the
 * admin API layout refuses the others before it asks who is calling.
 */
export function allowByPattern(): Map<string, string> {
  return new Map(
    Object.entries(apiPaths()).map(([path, item]) => [
      path.slice(1).replace(/\{(\w+)\}/g, ":$1"),
      allowOf({ [path]: item }),
    ]),
  );
}

let document: ReturnType<typeof createDocument> | undefined;

/** The document, built once per process. */
export function openApiDocument() {
  const spec: ZodOpenApiObject = {
    openapi: "3.1.0",
    info: {
      title: "Studio booking JSON API",
      version: "1.0.0",
      description:
        "The site's JSON API: sign-in is by the sign-in cookie that /api/login and /api/register set. " +
        "Every refusal answers `{ message }` in words written for a person, plus the fields a route names.",
    },
    paths: apiPaths(),
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "__session" },
      },
    },
  };
  document ??= createDocument(spec);
  return document;
}
