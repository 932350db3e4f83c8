import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { apiPaths } from "#app/routes/api/openapi.server";
import { ACCESS_RULES, METHODS } from "#tests/routes/access-rules";
import { targetsFromRouteTable } from "#tests/setup/route-targets";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * /api/openapi.json (docs/product.md "The JSON API"): valid OpenAPI 3.1, public and cacheable,
 * and describing every /api/* route and method of app/routes.ts, no more and no fewer. Which
 * methods a route serves is read from the authorization matrix (access-rules.ts), which every
 * route must have: a method is served unless every actor is answered 405.
 */
const server = appForThisFile();

/** Served only under settings the matrix's server does not run (there: 404 for every method). */
const ONLY_ELSEWHERE: Record<string, string[]> = {
  // With PAYMENT_PROVIDER=stripe (tests/integration/stripe.test.ts).
  "/api/payments/webhook": ["POST"],
};

/** "/api/bookings/:id/cancel" -> "/api/bookings/{id}/cancel" */
const openApiPath = (pattern: string) => pattern.replace(/:(\w+)/g, "{$1}");

function servedMethods(pattern: string): string[] {
  const elsewhere = ONLY_ELSEWHERE[pattern];
  if (elsewhere) return elsewhere;
  const rule = ACCESS_RULES[pattern];
  if (rule?.kind !== "resource") throw new Error(`${pattern}: no resource rule in access-rules.ts`);
  return METHODS.filter((method) =>
    Object.values(rule.methods[method]).some((outcome) => outcome.status !== 405),
  );
}

const apiRoutes = targetsFromRouteTable().filter((target) => target.isApi);

describe("GET /api/openapi.json", () => {
  it("is valid OpenAPI 3.1, public and cacheable", async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(document);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });
});

describe("the description of every /api route", () => {
  const paths = apiPaths();

  it.each(apiRoutes.map((route) => [route.pattern, route.file]))(
    "%s (%s) is described with each method it serves",
    (pattern, file) => {
      const item = paths[openApiPath(pattern)];
      expect(item, `${file}: no \`openapi\` entry for ${openApiPath(pattern)}`).toBeDefined();
      const described = METHODS.filter(
        (method) => item?.[method.toLowerCase() as Lowercase<typeof method>],
      );
      expect(described, `${file}: methods described vs served`).toEqual(servedMethods(pattern));
    },
  );

  it("describes no path that app/routes.ts does not serve", () => {
    const served = new Set(apiRoutes.map((route) => openApiPath(route.pattern)));
    expect(Object.keys(paths).filter((path) => !served.has(path))).toEqual([]);
  });

  it("gives every operation a summary and every answer a description", () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
      for (const method of METHODS) {
        const operation = item[method.toLowerCase() as Lowercase<typeof method>];
        if (!operation) continue;
        if (!operation.summary) missing.push(`${method} ${path}: summary`);
        for (const [status, answer] of Object.entries(operation.responses ?? {})) {
          if (!answer || !("description" in answer) || !answer.description) {
            missing.push(`${method} ${path} ${status}: description`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("POST /api/bookings' body", () => {
  it("describes the waitlist claim (`waitlistEntryId`, a whole number) beside `repeat`", async () => {
    const document = await (await fetch(`${server.url}/api/openapi.json`)).json();
    let schema =
      document.paths["/api/bookings"].post.requestBody.content["application/json"].schema;
    // A shared schema is a reference into components.
    while (schema?.$ref) schema = document.components.schemas[schema.$ref.split("/").pop()];
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(["repeat", "waitlistEntryId"]),
    );
    expect(schema.properties.waitlistEntryId.type).toBe("integer");
    expect(schema.required ?? []).not.toContain("waitlistEntryId");
  });
});
