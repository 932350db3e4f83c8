import type {
  ZodOpenApiOperationObject,
  ZodOpenApiPathsObject,
  ZodOpenApiRequestBodyObject,
  ZodOpenApiResponseObject,
} from "zod-openapi";
import { z } from "#app/domain/zod";

/** Each /api/* route module describes itself; app/routes/api/openapi.server.ts assembles the document. */
export type ApiPaths = ZodOpenApiPathsObject;
export type ApiOperation = ZodOpenApiOperationObject;

const JSON_TYPE = "application/json";

export const errorBody = z
  .looseObject({ message: z.string() })
  .meta({ id: "Error", description: "A refusal: `message` is written for a person" });

export const fieldErrors = z.record(z.string(), z.array(z.string()));

export function answers(description: string, schema: z.ZodType): ZodOpenApiResponseObject {
  return { description, content: { [JSON_TYPE]: { schema } } };
}

export function refused(description: string, extra?: z.ZodRawShape): ZodOpenApiResponseObject {
  return answers(description, extra ? errorBody.extend(extra) : errorBody);
}

export function tooMany(description: string, extra?: z.ZodRawShape): ZodOpenApiResponseObject {
  return {
    ...refused(description, extra),
    headers: z.object({
      "Retry-After": z.string().meta({ description: "Seconds to wait before trying again" }),
    }),
  };
}

export function jsonRequest(schema: z.ZodType): ZodOpenApiRequestBodyObject {
  return { required: true, content: { [JSON_TYPE]: { schema } } };
}

export const idPath = z.object({ id: z.string().meta({ description: "A positive whole number" }) });

/** Without `page` or `limit`, the whole list; with them, one page and a `Link` to the next. */
export const PAGING_QUERY = {
  page: z
    .string()
    .optional()
    .meta({ description: "1-based; without page and limit, the whole list" }),
  limit: z.string().optional().meta({ description: "1 to 500" }),
};

export const notSignedIn = refused("Not signed in (`Not authenticated`)");
export const adminsOnly = refused(
  "Not an admin (`Admins only`), or an admin whose sign-in proved no second factor when staff must",
);
export const badBody = refused(
  "The body is not a JSON object or a field is refused: `errors` lists each field's messages",
  { errors: fieldErrors.optional() },
);
export const notJson = refused("The body is not sent as application/json");

/** The assembler adds these to every write operation that does not say otherwise. */
export const WRITE_REFUSALS = {
  403: refused("A cross-site write (`Cross-site request refused`)"),
  411: refused("A body streamed without Content-Length"),
  413: refused("A body over 1 MB"),
  503: tooMany("The database is busy right now: retry after Retry-After"),
} as const;

export const ADMIN_GUARD = { 401: notSignedIn, 403: adminsOnly } as const;

/** Listed before the route's own 400. */
export const BODY_REFUSALS = { 400: badBody, 415: notJson } as const;

export const ON_ID = { requestParams: { path: idPath } } as const;

export const body = (schema: z.ZodType) => ({ requestBody: jsonRequest(schema) });

export const idAndBody = (schema: z.ZodType) => ({ ...ON_ID, ...body(schema) });
