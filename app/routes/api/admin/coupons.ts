import {
  COUPON_FORM_ERRORS,
  COUPON_LIMITS,
  couponCodeProblem,
  couponDescription,
  couponValueProblem,
  expiryDateFrom,
  normalizeCouponCode,
} from "#app/domain/coupons";
import { COUPON_TYPES } from "#app/domain/coupon-type";
import { z } from "#app/domain/zod";
import { couponsAfter, createCoupon, listCoupons } from "#app/models/coupon.server";
import { jsonError, readJson } from "#app/web/api.server";
import { Refusal } from "#app/domain/refusal";
import { jsonRefusal } from "#app/web/refusals.server";
import { jsonListResponse, pageResponse } from "#app/web/json-list.server";
import { readListRequest } from "#app/models/pagination.server";
import type { Route } from "./+types/coupons";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { toCouponJson } from "#app/routes/api/json/coupon";

/**
 * GET /api/admin/coupons: the coupons, newest first as the Coupons tab lists them. Without `page`
 * or `limit` the whole list, streamed; with them one page (`limit` rows, 25 by default, at most
 * 500) and a Link rel="next" header when more follow (docs/product.md "The JSON API").
 */
export async function loader({ request }: Route.LoaderArgs) {
  const now = Date.now();
  const list = readListRequest(new URL(request.url));
  if (list.kind === "refused") return jsonError(400, list.message);
  if (list.kind === "whole") {
    return jsonListResponse({
      next: (afterId: number | null, limit) => couponsAfter(now, afterId, limit),
      keyOf: (row) => row.id,
      toJson: toCouponJson,
    });
  }
  const page = listCoupons(now, list.page, list.size);
  return pageResponse(request, { ...page, rows: page.rows.map(toCouponJson) });
}

/**
 * The original client (docs/product.md "The JSON API") sends the value already converted (whole
 * percent, or cents for a fixed amount), so `value` is taken in stored units and must be a whole
 * number in range; the server does not round it again. `description` and `createdAt` are not
 * trusted: the description is generated from the value, createdAt is the server's clock. An ISO
 * `expiryDate` names the calendar day as written (the date input's day at UTC midnight).
 */
const couponBody = z.object({
  code: z.string({ error: COUPON_FORM_ERRORS.codeRequired.description }),
  type: z.enum(COUPON_TYPES, { error: COUPON_FORM_ERRORS.type.description }),
  value: z.number({ error: COUPON_FORM_ERRORS.amount.description }),
  maxUses: z
    .number({ error: COUPON_FORM_ERRORS.uses.description })
    .int(COUPON_FORM_ERRORS.uses.description)
    .min(0, COUPON_FORM_ERRORS.uses.description)
    .max(COUPON_LIMITS.maxUses, COUPON_FORM_ERRORS.usesTooLarge.description)
    .optional(),
  expiryDate: z.string({ error: COUPON_FORM_ERRORS.expiry.description }).nullable().optional(),
  isActive: z.boolean({ error: "isActive must be true or false" }).optional(),
});

/** The body the action reads (tests/integration/json-errors.test.ts walks every field). */
export const jsonBody = couponBody;

export async function action({ request }: Route.ActionArgs) {
  const body = await readJson(request, jsonBody);
  const codeProblem = couponCodeProblem(body.code);
  if (codeProblem) return jsonError(400, COUPON_FORM_ERRORS[codeProblem].description);
  const valueProblem = couponValueProblem(body.type, body.value);
  if (valueProblem) return jsonError(400, COUPON_FORM_ERRORS[valueProblem].description);
  const expiry = expiryDateFrom(body.expiryDate);
  if ("error" in expiry) return jsonError(400, COUPON_FORM_ERRORS[expiry.error].description);
  const code = normalizeCouponCode(body.code);
  try {
    const coupon = createCoupon(
      {
        code,
        type: body.type,
        value: body.value,
        maxUses: body.maxUses ?? 0,
        expiryDate: expiry.value,
        isActive: body.isActive ?? true,
        description: couponDescription(body.type, body.value),
      },
      Date.now(),
    );
    return Response.json(toCouponJson(coupon), { status: 201 });
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return jsonRefusal(error, { code });
  }
}

export const openapi: doc.ApiPaths = {
  "/api/admin/coupons": {
    get: {
      summary:
        "The coupons, newest first; the whole list, or a page with ?page=&limit= (Link rel=next)",
      requestParams: { query: z.object(doc.PAGING_QUERY) },
      responses: {
        200: doc.answers("The list, or one page of it", z.array(shape.couponJson)),
        400: doc.refused("A page or limit out of range"),
        ...doc.ADMIN_GUARD,
      },
    },
    post: {
      summary: "Creates a coupon",
      ...doc.body(jsonBody),
      responses: {
        201: doc.answers("The new coupon", shape.couponJson),
        ...doc.BODY_REFUSALS,
        ...doc.ADMIN_GUARD,
        409: doc.refused("The code is taken", { code: z.string() }),
      },
    },
  },
};
