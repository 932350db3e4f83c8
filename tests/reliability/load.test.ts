import autocannon from "autocannon";
import { expect, it } from "vitest";
import { earliestBookableDate } from "#app/domain/availability";
import {
  type AckedBooking,
  bookingBody,
  type Customer,
  databaseForThisFile,
  inspect,
  integrityCheck,
  missingBookings,
  signUp,
  type Slot,
  slotSequence,
} from "#tests/reliability/support";

/**
 * docs/quality.md "Load": mixed traffic at 50 keep-alive connections for 60 s
 * (RELIABILITY_LOAD_SECONDS to change it): landing page, availability, the bookings list, booking
 * creation and login. No 5xx, no connection error, every acknowledged booking stored, and the
 * server's resident memory levels off instead of climbing with the requests served.
 */
const SECONDS = Number(process.env.RELIABILITY_LOAD_SECONDS || 60);
const WARM_UP_SECONDS = 10;
const CONNECTIONS = 50;
// The last third's peak may exceed the first third's by this much: heap growth after warm-up
// is fine, growth in step with the requests served (a leak) is not.
const GROWTH_ALLOWED = 1.2;
const RSS_CAP_KB = 512 * 1024;

const { dbPath, launch } = databaseForThisFile("load");

type Context = { customer?: Customer; slot?: Slot };
type Request = autocannon.Request;

it(`serves ${SECONDS} s of mixed load at ${CONNECTIONS} connections: no 5xx, nothing lost, bounded memory`, async () => {
  const running = await launch();
  const customers: Customer[] = [];
  for (let i = 0; i < 10; i += 1) customers.push(await signUp(running.url));
  const login = customers[0] as Customer;

  // Each connection acts as one customer (round robin), booking slots no one else gets.
  let assigned = 0;
  const customerOf = (context: Context) => {
    context.customer ??= customers[assigned++ % customers.length] as Customer;
    return context.customer;
  };
  const nextSlot = slotSequence();
  const acked: AckedBooking[] = [];
  const answers: Record<string, Record<number, number>> = {};
  const counted =
    (name: string, then?: (status: number, body: string, context: Context) => void) =>
    (status: number, body: string, context: object) => {
      const perStatus = answers[name] ?? {};
      perStatus[status] = (perStatus[status] ?? 0) + 1;
      answers[name] = perStatus;
      then?.(status, body, context as Context);
    };
  const withCookie = (request: Request, context: object): Request => ({
    ...request,
    headers: { ...request.headers, cookie: customerOf(context as Context).cookie },
  });

  const home: Request = { method: "GET", path: "/", onResponse: counted("landing page") };
  const availability: Request = {
    method: "GET",
    path: `/api/availability?date=${earliestBookableDate(Date.now())}&hours=2`,
    onResponse: counted("availability"),
  };
  const list: Request = {
    method: "GET",
    path: "/api/bookings",
    setupRequest: withCookie,
    onResponse: counted("bookings list"),
  };
  const create: Request = {
    method: "POST",
    path: "/api/bookings",
    setupRequest: (request, context) => {
      const slot = nextSlot();
      (context as Context).slot = slot;
      const signedIn = withCookie(request, context);
      return {
        ...signedIn,
        headers: { ...signedIn.headers, "content-type": "application/json" },
        body: JSON.stringify(bookingBody(slot)),
      };
    },
    onResponse: counted("booking creation", (status, body, context) => {
      if (status !== 201 || !context.customer || !context.slot) return;
      const id = Number((JSON.parse(body) as { id: number }).id);
      acked.push({ id, userId: context.customer.id, ...context.slot });
    }),
  };
  const signIn: Request = {
    method: "POST",
    path: "/api/login",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: login.username, password: login.password }),
    onResponse: counted("login"),
  };

  const load = (seconds: number) =>
    autocannon({
      url: running.url,
      connections: CONNECTIONS,
      duration: seconds,
      // Login (argon2, slow on purpose) is one request in ten, so it does not crowd out the rest.
      requests: [home, availability, list, create, home, availability, list, create, list, signIn],
    });

  // The same traffic first fills the heap to its working size (JIT, caches, V8 growing its
  // spaces), so the measured run compares steady state with steady state.
  const warmUp = await load(WARM_UP_SECONDS);
  // Resident memory in kB, every 250 ms while the measured load runs.
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(running.rssKb()), 250);
  let result: autocannon.Result;
  try {
    result = await load(SECONDS);
  } finally {
    clearInterval(sampler);
  }

  const third = Math.floor(rss.length / 3);
  const firstPeak = Math.max(...rss.slice(0, third));
  const lastPeak = Math.max(...rss.slice(-third));
  const missing = inspect(dbPath, (db) => ({
    integrity: integrityCheck(db),
    bookings: missingBookings(db, acked),
  }));
  console.log(
    `load: ${result.requests.total} requests in ${SECONDS} s at ${CONNECTIONS} connections ` +
      `(${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms), ` +
      `${result["5xx"]} 5xx, ${result.errors} errors, ${result.timeouts} timeouts, ` +
      `${acked.length} bookings acknowledged (with the ${WARM_UP_SECONDS} s warm-up of ${warmUp.requests.total} requests), ` +
      `${missing.bookings.length} missing; ` +
      `RSS first-third peak ${Math.round(firstPeak / 1024)} MB, last-third peak ${Math.round(lastPeak / 1024)} MB, ` +
      `max ${Math.round(Math.max(...rss) / 1024)} MB over ${rss.length} samples; ` +
      `answers ${JSON.stringify(answers)}`,
  );
  console.log(
    `RSS MB every 5 s: ${rss
      .filter((_, i) => i % 20 === 0)
      .map((kb) => Math.round(kb / 1024))
      .join(" ")}`,
  );

  for (const run of [warmUp, result]) {
    expect(run["5xx"]).toBe(0);
    expect(run.errors).toBe(0);
    expect(run.timeouts).toBe(0);
  }
  // Every kind of request was served, and bookings were really made under the load.
  expect(Object.keys(answers).sort()).toEqual(
    ["availability", "booking creation", "bookings list", "landing page", "login"].sort(),
  );
  expect(answers["landing page"]?.[200]).toBeGreaterThan(0);
  expect(answers.login?.[200]).toBeGreaterThan(0);
  expect(acked.length).toBeGreaterThan(0);
  expect(missing.bookings).toEqual([]);
  expect(missing.integrity).toBe("ok");
  expect(third).toBeGreaterThan(0);
  expect(lastPeak).toBeLessThanOrEqual(firstPeak * GROWTH_ALLOWED);
  expect(lastPeak).toBeLessThan(RSS_CAP_KB);
  // Still healthy afterwards.
  expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
});
