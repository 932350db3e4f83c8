import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { signIns } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import { createCoupon, createService } from "#tests/factories/catalog";
import { createSupportRequest } from "#tests/factories/support";
import { actorsFor } from "#tests/setup/actors";
import { emptyFixtures, validValue } from "#tests/setup/hostile-input";
import { targetsFromRouteTable } from "#tests/setup/route-targets";
import { PASSWORD } from "#tests/setup/payloads";
import { serverForThisFile } from "#tests/setup/server-for-this-file";
// The body schemas it parses here include the password rules.
import "#tests/setup/password-estimator";

/**
 * Every JSON error carries a message we wrote (docs/product.md "The JSON API"). For every
 * /api/* route whose action reads a JSON body, the body schema it exports as `jsonBody` (the
 * one it hands to readJson) gives the fields: a valid body is built from them, then each
 * required field is left out in turn and each field is sent with a value of the wrong type.
 * The real server must answer a 4xx whose `message`, and every message in `errors`, is ours:
 * the schema's own (a per-parse error map marks each issue that would fall back to zod's
 * wording) and none of zod's stock phrases. A new route, or a new field, is walked the day it
 * lands; a route that reads JSON without exporting its schema fails here.
 */
const server = serverForThisFile();
const people = actorsFor(server);

type Schema = z.ZodType;
type BodyRoute = { file: string; path: string; schema: Schema };

const LIBRARY_DEFAULT = "__zod_default_message__";
/** zod's stock wording, in case a message slips past the error-map check. */
const STOCK =
  /^(Invalid input|Required|Invalid (type|string|number|enum|option|literal|date|email|url|union|key)|Expected |Too (small|big)|Unrecognized key|Number must|String must|Array must)|expected \w+, received/i;

const fixtures = emptyFixtures(PASSWORD);
/** The row each `:id` names, by the collection before it in the URL. */
const ids: Record<string, number> = {};
let adminCookie = "";
let adminSignIn: typeof signIns.$inferSelect | undefined;

const routes: BodyRoute[] = [];
type RouteModule = { jsonBody?: Schema | ((now: number) => Schema) };
const ROUTE_MODULES = import.meta.glob<RouteModule>([
  "/app/routes/api/**/*.ts",
  "!/app/routes/api/**/*.test.ts",
]);

function objectShape(schema: Schema): Record<string, Schema> {
  const def = (
    schema as unknown as {
      _zod: { def: { type: string; in?: Schema; shape?: Record<string, Schema> } };
    }
  )._zod.def;
  if (def.type === "object" && def.shape) return def.shape;
  if (def.type === "pipe" && def.in) return objectShape(def.in);
  throw new Error(`Not an object schema (${def.type})`);
}

/** A value of `field` its schema accepts, from what the hostile-input suite knows of it. */
function acceptedValue(field: string, fieldSchema: Schema): unknown {
  const candidates = fc.sample(validValue(field, fixtures), { numRuns: 60, seed: 13 });
  return candidates.find((value) => fieldSchema.safeParse(value).success);
}

function validBody(route: BodyRoute): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, fieldSchema] of Object.entries(objectShape(route.schema))) {
    const value = acceptedValue(field, fieldSchema);
    if (value !== undefined) body[field] = value;
  }
  const parsed = route.schema.safeParse(body);
  expect(
    parsed.success,
    `${route.file}: no valid body from tests/setup/hostile-input.ts validValue: ${JSON.stringify(parsed.error?.issues)}`,
  ).toBe(true);
  return body;
}

const requiredFields = (schema: Schema) =>
  Object.entries(objectShape(schema))
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([name]) => name);

const WRONG_TYPES: unknown[] = ["not-a-value", 7, true, { nested: "object" }, ["list"], null];

async function send(route: BodyRoute, method: string, body: unknown) {
  // A login or registration that goes through ends the sign-in it was sent with: put it back.
  if (adminSignIn) people.db().insert(signIns).values(adminSignIn).onConflictDoNothing().run();
  const response = await fetch(`${server.url}${route.path}`, {
    method,
    headers: { "Content-Type": "application/json", Cookie: adminCookie },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json: { message?: unknown; errors?: Record<string, unknown> } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // checked below
  }
  return { status: response.status, json, text };
}

/** The 4xx, with our message: none from zod's defaults, for this body and this schema. */
function expectOurRefusal(
  route: BodyRoute,
  body: Record<string, unknown>,
  reply: Awaited<ReturnType<typeof send>>,
  label: string,
) {
  const where = `${route.file} ${label}: ${reply.status} ${reply.text.slice(0, 300)}`;
  expect(reply.status, where).toBeGreaterThanOrEqual(400);
  expect(reply.status, where).toBeLessThan(500);
  expect(typeof reply.json.message, where).toBe("string");
  const messages = [
    String(reply.json.message),
    ...Object.values(reply.json.errors ?? {})
      .flat()
      .map(String),
  ];
  for (const message of messages) expect(message, where).not.toMatch(STOCK);
  // Issues that would take zod's wording, found with the schema the route uses.
  const marked = route.schema.safeParse(body, { error: () => LIBRARY_DEFAULT });
  const defaults = (marked.error?.issues ?? [])
    .filter((issue) => issue.message === LIBRARY_DEFAULT)
    .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.code}`);
  expect(defaults, `${where}\nissues without our message`).toEqual([]);
}

beforeAll(async () => {
  const db = people.db();
  const service = createService(db, { name: "Video package", price: 5_000 });
  fixtures.serviceIds.push(service.id);
  const coupon = createCoupon(db, { code: "JSONERR10", type: "PERCENTAGE", value: 10 });
  fixtures.couponCodes.push(coupon.code);
  const earliest = earliestBookableDate(Date.now());
  for (let days = 5; days <= 30; days += 5)
    fixtures.futureDates.push(addStudioDays(earliest, days));
  const admin = await people.signUpAdmin();
  adminCookie = admin.cookie;
  adminSignIn = db.select().from(signIns).where(eq(signIns.userId, admin.id)).get();
  fixtures.usernames.push(admin.username);
  fixtures.userIds.push(admin.id);
  const booking = createBooking(db, {
    user: { id: admin.id },
    date: addStudioDays(earliest, 40),
    status: "PENDING_PAYMENT",
  });
  fixtures.bookingIds.push(booking.id);
  Object.assign(ids, {
    bookings: booking.id,
    users: admin.id,
    coupons: coupon.id,
    services: service.id,
    "tech-assistance": createSupportRequest(db, { user: { id: admin.id } }).id,
  });

  for (const target of targetsFromRouteTable().filter((t) => t.isApi)) {
    const source = readFileSync(`app/${target.file}`, "utf8");
    if (!source.includes("readJson(")) continue;
    const load = ROUTE_MODULES[`/app/${target.file}`];
    if (!load) throw new Error(`No module for ${target.file}`);
    const module = await load();
    expect(
      module.jsonBody,
      `${target.file} reads JSON: export its schema as jsonBody`,
    ).toBeDefined();
    expect(source, `${target.file}: readJson takes the exported jsonBody`).toMatch(
      /readJson\(request, jsonBody(\(now\))?\)/,
    );
    const exported = module.jsonBody as Schema | ((now: number) => Schema);
    const schema = exported instanceof z.ZodType ? exported : exported(Date.now());
    const path = target.pattern.replace(/\/[^/]+\/:[a-zA-Z]+/g, (segment) => {
      const [collection] = segment.slice(1).split("/");
      const id = collection ? ids[collection] : undefined;
      if (id === undefined) throw new Error(`No row for ${segment} in ${target.pattern}`);
      return `/${collection}/${id}`;
    });
    routes.push({ file: target.file, path, schema });
  }
});

/** The method the route reads its body on: the one of POST, PUT, PATCH that is not a 405. */
async function bodyMethod(route: BodyRoute): Promise<string> {
  for (const method of ["POST", "PUT", "PATCH"]) {
    if ((await send(route, method, {})).status !== 405) return method;
  }
  throw new Error(`${route.file} answers 405 to POST, PUT and PATCH`);
}

describe("JSON bodies of /api/*", () => {
  it("finds every route that reads one", () => {
    expect(routes.map((route) => route.file)).toContain("routes/api/bookings.ts");
    expect(routes.length).toBeGreaterThanOrEqual(17);
  });

  it("answers each missing required field and each wrong-typed field with a 4xx and a message we wrote", async () => {
    for (const route of routes) {
      const method = await bodyMethod(route);
      const valid = validBody(route);
      const required = requiredFields(route.schema);
      for (const field of Object.keys(objectShape(route.schema))) {
        const { [field]: _left, ...body } = valid;
        const reply = await send(route, method, body);
        // A field the schema lets go may still be required by the route's own checks (a
        // service's name): any refusal it gets must be in our words too.
        if (!required.includes(field) && reply.status < 400) continue;
        expectOurRefusal(route, body, reply, `without ${field}`);
        if (required.includes(field)) {
          expect(Object.keys(reply.json.errors ?? {}), `${route.file} without ${field}`).toContain(
            field,
          );
        }
      }
      const shape = objectShape(route.schema);
      for (const [field, fieldSchema] of Object.entries(shape)) {
        for (const wrong of WRONG_TYPES) {
          if (fieldSchema.safeParse(wrong).success) continue;
          const body = { ...valid, [field]: wrong };
          expectOurRefusal(
            route,
            body,
            await send(route, method, body),
            `${field}: ${JSON.stringify(wrong)}`,
          );
        }
      }
    }
  }, 120_000);
});

describe("an unknown /api/* path", () => {
  it("answers every method with a JSON 404 and our message, not the not-found page", async () => {
    const paths = ["/api/does-not-exist", "/api/admin/nothing-here", "/api/bookings//status"];
    for (const path of paths) {
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const writes = !["GET", "HEAD", "OPTIONS"].includes(method);
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers: {
            Cookie: adminCookie,
            ...(writes ? { "Content-Type": "application/json" } : {}),
          },
          body: writes ? "{}" : undefined,
        });
        const where = `${method} ${path}`;
        expect(response.status, where).toBe(404);
        expect(response.headers.get("Content-Type"), where).toMatch(/^application\/json/);
        if (method === "HEAD") continue;
        expect(await response.json(), where).toEqual({
          message:
            "There is no API call at this address: see /api/openapi.json for the calls there are.",
        });
      }
    }
  });
});
