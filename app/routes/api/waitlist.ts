import { z } from "#app/domain/zod";
import { waitlistRequestSchema } from "#app/domain/booking-form";
import * as shape from "#app/routes/api/json/shapes";
import { listOwnEntries } from "#app/models/waitlist.server";
import { toWaitlistJson } from "#app/routes/api/json/waitlist";
import { readJson, describedMethodsOnly } from "#app/web/api.server";
import { requireApiUser } from "#app/web/user-context.server";
import { joinWaitlist } from "#app/workflows/waitlist.server";
import { Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import type { Route } from "./+types/waitlist";
import * as doc from "#app/web/api-doc";

/**
 * GET /api/waitlist: the caller's own waitlist entries, soonest first, whatever their status
 * (docs/product.md "Waitlist").
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireApiUser(request, context);
  return Response.json(listOwnEntries(user.id).map(toWaitlistJson));
}

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = waitlistRequestSchema;

/**
 * POST /api/waitlist `{recordingDate, recordingTime, hoursNeeded}`: waits for a taken range.
 * 400 for a start that could never be booked (48 hours, horizon, clock change); 422 when the
 * record refuses it: the range is free, taken by the caller's own live booking, already on the
 * caller's list, or MAX_WAITLIST is reached
 * (409 is kept for a duplicate coupon code alone: docs/product.md "The JSON API").
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context);
  const now = Date.now();
  const range = await readJson(request, jsonBody(now));
  try {
    const entry = joinWaitlist(user.id, range, now);
    return Response.json(toWaitlistJson(entry), { status: 201 });
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return jsonRefusal(error);
  }
}

export const openapi: doc.ApiPaths = {
  "/api/waitlist": {
    get: {
      summary: "The caller's own waitlist entries, soonest first",
      responses: {
        200: doc.answers("The entries", z.array(shape.waitlistEntryJson)),
        401: doc.notSignedIn,
      },
    },
    post: {
      summary: "Asks to be told when a taken range frees up",
      ...doc.body(jsonBody(Date.now())),
      responses: {
        201: doc.answers("The new entry, WAITING", shape.waitlistEntryJson),
        ...doc.BODY_REFUSALS,
        400: doc.refused("A refused field, or a start that cannot be booked (48 hours, horizon)", {
          errors: z.record(z.string(), z.array(z.string())).optional(),
        }),
        401: doc.notSignedIn,
        422: doc.refused(
          "The range is free now, is taken by the caller's own live booking, is already on the caller's list, or MAX_WAITLIST is reached",
        ),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
