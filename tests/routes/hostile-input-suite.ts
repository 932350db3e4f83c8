import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { signIns } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { createCoupon, createService } from "#tests/factories/catalog";
import { CARD_DETAILS, createPayment } from "#tests/factories/payment";
import { type Actor, actorsFor } from "#tests/setup/actors";
import {
  type Body,
  emptyFixtures,
  formBodies,
  jsonBodies,
  KNOWLEDGE,
  knowledgeOf,
  paramValue,
  queryStrings,
} from "#tests/setup/hostile-input";
import { describeRequest, HANG_MS, type RawRequest, type Reply } from "#tests/setup/raw-http";
import { routeFileFor, type Target, targetsFromRouteTable } from "#tests/setup/route-targets";
import { bookingPayload } from "#tests/setup/payloads";
import { errorLines, registrationPayload } from "#tests/setup/server";
import { appForThisFile } from "#tests/setup/app-in-process";

/** Runs per property; FUZZ_RUNS=500 digs deeper locally (CI keeps the suite well under a minute). */
const RUNS = Number(process.env.FUZZ_RUNS) || 30;
const PROPERTY_TIMEOUT_MS = 120_000 * Math.max(1, RUNS / 30);
const REPLAY = process.env.FUZZ_SEED
  ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH }
  : {};
const PASSWORD = String(registrationPayload().password);

type SignIn = typeof signIns.$inferSelect;

export type ActorName = "visitor" | "customer" | "admin";

/**
 * Hostile input (docs/quality.md "Fuzz"): random and malformed bodies, query strings, path
 * parameters and form fields against every route of app/routes.ts, as a visitor, a customer
 * and an admin, to the app in process as the server hands it a raw request. Whatever arrives,
 * the app answers below 500 and in time, a JSON endpoint answers JSON with a `message` on
 * errors, and a refused request (4xx, or a redirect to sign in) leaves every table as it was.
 * What the server does before the app reads a body (its limits) is body-limits.test.ts's. A
 * failure prints fast-check's seed, path and shrunk input;
 * `FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run <its file> -t '<test name>'` replays it.
 *
 * The app for the calling test file with the suite's fixtures (services, coupons, the three
 * actors, their bookings and payments), and its describe blocks to call at the file's top level.
 * Each actor runs in a file of its own (hostile-input-*.test.ts), so the two test workers
 * share them.
 */
export function hostileInput() {
  const server = appForThisFile();
  const people = actorsFor(server);

  const signedIn: Partial<Record<ActorName, Actor & { signIn: SignIn }>> = {};
  const fixtures = emptyFixtures(PASSWORD);

  async function createBooking(actor: Actor, date: string, time: string): Promise<number> {
    const response = await fetch(`${server.url}/api/bookings`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: actor.cookie },
      body: JSON.stringify(
        bookingPayload(date, time, 2, { selectedServices: fixtures.serviceIds }),
      ),
    });
    const body = (await response.json()) as { id: number; message?: string };
    expect(response.status, body.message).toBe(201);
    return body.id;
  }

  beforeAll(async () => {
    const db = people.db();
    for (const [name, price] of [
      ["Video package", 5_000],
      ["Old add-on", 1_000],
    ] as const) {
      const isActive = name !== "Old add-on";
      const service = createService(db, { name, price, isActive });
      (isActive ? fixtures.serviceIds : fixtures.inactiveServiceIds).push(service.id);
    }
    for (const [code, type, value] of [
      ["FUZZ10", "PERCENTAGE", 10],
      ["FREEFUZZ", "PERCENTAGE", 100],
    ] as const) {
      createCoupon(db, { code, description: "fuzz coupon", type, value });
      fixtures.couponCodes.push(code);
    }
    const earliest = earliestBookableDate(Date.now());
    for (let days = 1; days <= 40; days += 3)
      fixtures.futureDates.push(addStudioDays(earliest, days));

    const customer = await people.signUp();
    const other = await people.signUp();
    const admin = await people.signUpAdmin();
    fixtures.usernames.push(customer.username, other.username, admin.username);
    fixtures.userIds.push(customer.id, other.id, admin.id);
    // Bookings of the customer (one to pay), of someone else and of the admin, so ids and
    // payments in the generated requests hit real rows of every owner.
    const day = addStudioDays(earliest, 100);
    fixtures.bookingIds.push(
      await createBooking(customer, day, "08:00"),
      await createBooking(customer, day, "12:00"),
      await createBooking(other, day, "16:00"),
      await createBooking(admin, day, "20:00"),
    );
    // Paid bookings of the customer and of someone else, each with its receipt, so receipt URLs
    // in the generated requests hit real documents of both owners.
    for (const [actor, time] of [
      [customer, "10:00"],
      [other, "14:00"],
    ] as const) {
      const id = await createBooking(actor, addStudioDays(earliest, 101), time);
      // A card charge with its provider reference, as the app records one: staff cancelling the
      // booking in the generated requests refund it through the sandbox.
      const payment = createPayment(db, {
        booking: { id, userId: actor.id },
        transactionId: `sandbox_hostile_${id}`,
        paymentDetails: CARD_DETAILS,
      });
      fixtures.paymentIds.push(payment.id);
      fixtures.bookingIds.push(id);
    }
    for (const [name, actor] of [
      ["customer", customer],
      ["admin", admin],
    ] as const) {
      const signIn = db.select().from(signIns).where(eq(signIns.userId, actor.id)).get();
      if (!signIn) throw new Error(`${name} has no sign-in`);
      signedIn[name] = { ...actor, signIn };
    }
  });

  /**
   * The actor's cookie, its sign-in row put back first: a generated logout, login or
   * registration legitimately ends the sign-in it was sent with, and the next run must still be
   * that actor. Restored before the "before" snapshot, so it never counts as a write.
   */
  function cookieOf(actor: ActorName): string | undefined {
    const person = signedIn[actor];
    if (!person) return undefined;
    people.db().insert(signIns).values(person.signIn).onConflictDoNothing().run();
    return person.cookie;
  }

  /**
   * A raw request as the server hands it to the app: its URL made from the path as sent, as
   * server/app.ts makes it; the answer read in time, or the request is a hang.
   */
  async function send(request: RawRequest): Promise<Reply> {
    const headers = new Headers(request.headers);
    if (request.body !== undefined) {
      headers.set("Content-Length", String(Buffer.byteLength(request.body)));
    }
    const answered = server
      .answer(
        new Request(`${server.url}${request.path}`, {
          method: request.method,
          headers,
          body: request.body as BodyInit | undefined,
        }),
      )
      .then(async (response) => ({
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: Buffer.from(await response.arrayBuffer()),
      }));
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms (hang)`)), HANG_MS);
    });
    return Promise.race([answered, hang]).finally(() => clearTimeout(timer));
  }

  /** Refused: a 4xx, or sent (or told, on a .data request) to sign in. */
  function isRefusal(reply: Reply): boolean {
    if (reply.status >= 400 && reply.status < 500) return true;
    const location = String(reply.headers.location ?? reply.headers["x-remix-redirect"] ?? "");
    return reply.status >= 200 && reply.status < 400 && location.startsWith("/auth");
  }

  /**
   * One request, checked. The snapshot covers every table: nothing else writes to this file's
   * database while the request runs (the requests are sequential, the hold sweeper only cancels
   * holds older than HOLD_MINUTES, and without SMTP the outbox poller never starts).
   */
  async function attempt(actor: ActorName, request: RawRequest) {
    const cookie = cookieOf(actor);
    const sent: RawRequest = {
      ...request,
      headers: {
        Origin: server.url,
        ...(cookie ? { Cookie: cookie } : {}),
        ...request.headers,
      },
    };
    const what = describeRequest({ ...sent, actor });
    const before = people.snapshot();
    const reply = await send(sent).catch((error: unknown) => {
      throw new Error(`${what}: ${error instanceof Error ? error.message : error}`);
    });
    expect(reply.status, `server error for ${what}`).toBeLessThan(500);
    if (isRefusal(reply)) {
      expect(people.snapshot(), `wrote on a refused (${reply.status}) ${what}`).toEqual(before);
    }
    // The URL a generated parameter makes may belong to another route (often the catch-all:
    // the not-found page, or under /api/ its JSON 404).
    const handler = routeFileFor(request.path);
    const fileType = handler ? KNOWLEDGE[handler]?.fileType : undefined;
    // A `.data` URL is the router's data request for the page without the suffix (for
    // `/calendar/.data`, the catch-all's), never the file route's file.
    const dataRequest = new URL(request.path, "http://host").pathname.endsWith(".data");
    if (fileType && reply.status === 200 && !dataRequest) {
      expect(String(reply.headers["content-type"]), `not the file: ${what}`).toBe(fileType);
    } else if (handler?.startsWith("routes/api/") && request.method !== "HEAD") {
      expectJsonAnswer(reply, what);
    }
    return reply;
  }

  function expectJsonAnswer(reply: Reply, what: string) {
    expect(String(reply.headers["content-type"]), `not JSON: ${what}`).toMatch(
      /^application\/json/,
    );
    const body: unknown = JSON.parse(reply.body.toString("utf8"));
    if (reply.status >= 400) {
      const message = (body as { message?: unknown } | null)?.message;
      expect(typeof message === "string" && message.length > 0, `no message: ${what}`).toBe(true);
    }
  }

  /** The URL of a target with its parameters filled in, optionally its single-fetch `.data` URL. */
  function urlOf(
    target: Target,
    params: string[],
    asData: boolean,
    query: string,
    isPost: boolean,
  ) {
    let index = 0;
    const next = () => params[index++ % params.length] ?? "1";
    let path = target.pattern
      .split("/")
      .map((segment) => (segment.startsWith(":") || segment === "*" ? next() : segment))
      .join("/");
    if (asData) path = path === "/" ? "/_root.data" : `${path}.data`;
    const search = [target.isIndex && isPost ? "index" : "", query.replace(/^\?/, "")]
      .filter(Boolean)
      .join("&");
    return search ? `${path}?${search}` : path;
  }

  const targets = targetsFromRouteTable();
  const pageTargets = targets.filter((target) => !target.isApi);
  const apiTargets = targets.filter((target) => target.isApi);
  const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  /** Any method, the one the endpoint serves most often: that is where its input is parsed. */
  const methodFor = (target: Target) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(knowledgeOf(target).method ?? "GET") },
      { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
    );
  const twoParams = () => fc.array(paramValue(fixtures), { minLength: 2, maxLength: 2 });
  const sometimesQuery = (target: Target) =>
    fc.oneof({ weight: 3, arbitrary: fc.constant("") }, queryStrings(target, fixtures));

  return {
    /** The route table yields targets, and the signed-in actors are who the suite says. */
    routeTable() {
      describe("the route table", () => {
        it("yields page and API targets, and every actor is who the suite says", async () => {
          expect(pageTargets.length).toBeGreaterThan(0);
          expect(apiTargets.length).toBeGreaterThan(0);
          expect(routeFileFor("/api/bookings/7/status")).toBe("routes/api/bookings.status.ts");
          expect(routeFileFor("/api/bookings//status")).toBe("routes/not-found.tsx");
          expect(routeFileFor("/api/bookings/%2e%2e/status")).toBe("routes/not-found.tsx");
          expect(routeFileFor("/?index")).toBe("routes/home/home.tsx");
          for (const actor of ["customer", "admin"] as const) {
            const reply = await send({
              method: "GET",
              path: "/api/user",
              headers: { Cookie: cookieOf(actor) ?? "" },
            });
            expect(reply.status).toBe(200);
            const user = JSON.parse(reply.body.toString()) as { id: number; isAdmin: boolean };
            expect(user.id).toBe(signedIn[actor]?.id);
            expect(user.isAdmin).toBe(actor === "admin");
          }
        });
      });
    },
    /** Every property of the suite, sent as `actor`. */
    as(actor: ActorName) {
      describe(`hostile input as a ${actor}`, () => {
        it.each(pageTargets)(
          "form posts to $pattern ($file)",
          async (target) => {
            await fc.assert(
              fc.asyncProperty(
                twoParams(),
                fc.boolean(),
                sometimesQuery(target),
                formBodies(target, fixtures),
                async (params, asData, query, makeBody) => {
                  const body: Body = await makeBody();
                  await attempt(actor, {
                    method: "POST",
                    path: urlOf(target, params, asData, query, true),
                    headers: body.contentType ? { "Content-Type": body.contentType } : {},
                    body: body.body,
                  });
                },
              ),
              { numRuns: RUNS, ...REPLAY },
            );
          },
          PROPERTY_TIMEOUT_MS,
        );

        it.each(apiTargets)(
          "every method and body on $pattern",
          async (target) => {
            await fc.assert(
              fc.asyncProperty(
                twoParams(),
                methodFor(target),
                sometimesQuery(target),
                jsonBodies(target, fixtures),
                async (params, method, query, body) => {
                  const withBody = method !== "GET" && method !== "HEAD";
                  await attempt(actor, {
                    method,
                    path: urlOf(target, params, false, query, withBody),
                    headers:
                      withBody && body.contentType ? { "Content-Type": body.contentType } : {},
                    body: withBody ? body.body : undefined,
                  });
                },
              ),
              { numRuns: RUNS, ...REPLAY },
            );
          },
          PROPERTY_TIMEOUT_MS,
        );

        it.each(targets)(
          "GET $pattern with hostile query strings and parameters",
          async (target) => {
            await fc.assert(
              fc.asyncProperty(
                twoParams(),
                fc.boolean(),
                fc.constantFrom("GET", "HEAD"),
                queryStrings(target, fixtures),
                async (params, asData, method, query) => {
                  await attempt(actor, {
                    method,
                    path: urlOf(target, params, asData && !target.isApi, query, false),
                  });
                },
              ),
              { numRuns: RUNS, ...REPLAY },
            );
          },
          PROPERTY_TIMEOUT_MS,
        );
      });
    },
    /** The inputs that once made the app fail, each a test of its own. */
    foundInputs() {
      describe("inputs this suite found", () => {
        it.each([
          ["/?index", "multipart/form-data; boundary=----cut", "", 400],
          ["/auth", "multipart/form-data", "intent=login", 400],
          ["/auth", "application/json", '{"intent":"login"}', 415],
          ["/?index", "text/plain", "intent=book", 415],
        ])(
          "answers a form post to %s that is not a form (%s) with 4xx",
          async (path, type, body, status) => {
            const before = people.snapshot();
            const reply = await send({
              method: "POST",
              path,
              headers: { Origin: server.url, "Content-Type": type },
              body,
            });
            expect(reply.status).toBe(status);
            expect(people.snapshot()).toEqual(before);
          },
        );

        it("answers a customer's checkout post that is not a form with 4xx", async () => {
          const reply = await send({
            method: "POST",
            path: `/checkout/${fixtures.bookingIds[0]}`,
            headers: {
              Origin: server.url,
              Cookie: cookieOf("customer") ?? "",
              "Content-Type": "text/plain",
            },
            body: "intent=book&%E0%A4%A=%",
          });
          expect(reply.status).toBe(415);
        });
      });
    },
    /** No stack trace and no error line in the app's log once the file's tests ran. */
    log() {
      describe("the app's log after all of it", () => {
        it("holds no stack trace and no error line", () => {
          const log = server.output();
          expect(log).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
          expect(errorLines(log)).toEqual([]);
        });
      });
    },
  };
}
