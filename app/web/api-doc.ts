import type {
  ZodOpenApiOperationObject,
  ZodOpenApiPathsObject,
  ZodOpenApiRequestBodyObject,
  ZodOpenApiResponseObject,
} from "zod-openapi";
import { z } from "#app/domain/zod";

/**
 * The pieces each /api/* route module describes itself with (its exported `openapi`: the paths
 * it serves, each method and every status it can answer, one line per status). The document is
 * assembled from them in app/routes/api/openapi.server.ts (docs/decisions/0086).
 */
export type ApiPaths = ZodOpenApiPathsObject;
export type ApiOperation = ZodOpenApiOperationObject;

const JSON_TYPE = "application/json";

/** Every refusal: `message` in our words, plus the fields a route adds. */
export const errorBody = z
  .looseObject({ message: z.string() })
  .meta({ id: "Error", description: "A refusal: `message` is written for a person" });

/** A refused body field by field (readJson's 400, the period checks): each field's messages. */
export const fieldErrors = z.record(z.string(), z.array(z.string()));

/** A JSON answer of `schema`. */
export function answers(description: string, schema: z.ZodType): ZodOpenApiResponseObject {
  return { description, content: { [JSON_TYPE]: { schema } } };
}

/** A refusal: `{ message }`, plus the fields `extra` names. */
export function refused(description: string, extra?: z.ZodRawShape): ZodOpenApiResponseObject {
  return answers(description, extra ? errorBody.extend(extra) : errorBody);
}

/** A refusal past a rate limit: 429 with Retry-After (seconds). */
export function tooMany(description: string, extra?: z.ZodRawShape): ZodOpenApiResponseObject {
  return {
    ...refused(description, extra),
    headers: z.object({
      "Retry-After": z.string().meta({ description: "Seconds to wait before trying again" }),
    }),
  };
}

/** The JSON body a write reads with readJson (app/web/api.server.ts). */
export function jsonRequest(schema: z.ZodType): ZodOpenApiRequestBodyObject {
  return { required: true, content: { [JSON_TYPE]: { schema } } };
}

/** `{id}` in the path: a positive whole number; anything else answers 404. */
export const idPath = z.object({ id: z.string().meta({ description: "A positive whole number" }) });

/**
 * `?page=&limit=` of the admin lists (models/pagination.server.ts): without either, the whole
 * list; with them, one page and a `Link` to the next.
 */
export const PAGING_QUERY = {
  page: z
    .string()
    .optional()
    .meta({ description: "1-based; without page and limit, the whole list" }),
  limit: z.string().optional().meta({ description: "1 to 500" }),
};

// The answers many routes share, by the helper that gives them.

/** requireApiUser and the admin guards: a visitor. */
export const notSignedIn = refused("Not signed in (`Not authenticated`)");
/** requireApiAdmin and the admin API's guard: a customer, or staff without two-factor. */
export const adminsOnly = refused(
  "Not an admin (`Admins only`), or an admin whose sign-in proved no second factor when staff must",
);
/** readJson: not a JSON object, or a field its schema refuses (`errors` by field). */
export const badBody = refused(
  "The body is not a JSON object or a field is refused: `errors` lists each field's messages",
  { errors: fieldErrors.optional() },
);
/** readJson: a body sent without Content-Type: application/json. */
export const notJson = refused("The body is not sent as application/json");

/**
 * What any write can answer outside its route's own code (server/app.ts,
 * app/web/security.server.ts, app/db.server.ts): the assembler adds these to every write
 * operation that does not say otherwise.
 */
export const WRITE_REFUSALS = {
  403: refused("A cross-site write (`Cross-site request refused`)"),
  411: refused("A body streamed without Content-Length"),
  413: refused("A body over 1 MB"),
  503: tooMany("The database is busy right now: retry after Retry-After"),
} as const;

/** Answered by the admin API's guard, and by requireApiAdmin, before the route runs. */
export const ADMIN_GUARD = { 401: notSignedIn, 403: adminsOnly } as const;

/** What readJson refuses before the route sees the body (listed before the route's own 400). */
export const BODY_REFUSALS = { 400: badBody, 415: notJson } as const;

/** An operation on a path with `{id}`. */
export const ON_ID = { requestParams: { path: idPath } } as const;

/** An operation that reads `schema` as its JSON body. */
export const body = (schema: z.ZodType) => ({ requestBody: jsonRequest(schema) });

/** An operation on `{id}` that reads `schema` as its JSON body. */
export const idAndBody = (schema: z.ZodType) => ({ ...ON_ID, ...body(schema) });
