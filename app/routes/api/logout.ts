import { describedMethodsOnly } from "#app/web/api.server";
import { destroySignIn } from "#app/web/sign-in.server";
import type { Route } from "./+types/logout";
import * as doc from "#app/web/api-doc";
import { z } from "#app/domain/zod";

/** POST /api/logout: ends the sign-in in the database and clears the cookie. Idempotent. */
export async function action({ request }: Route.ActionArgs) {
  const cookie = await destroySignIn(request);
  return Response.json({ success: true }, { headers: { "Set-Cookie": cookie } });
}

export const openapi: doc.ApiPaths = {
  "/api/logout": {
    post: {
      summary: "Ends the sign-in and clears the cookie (idempotent)",
      responses: { 200: doc.answers("Signed out", z.strictObject({ success: z.literal(true) })) },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
