import autocannon from "autocannon";
import { eq } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { users } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { openDatabaseFile } from "#tests/factories/database";
import { createFlyCgroup } from "#tests/setup/fly-machine";
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
 * docs/quality.md "Load", on the machine the site really runs on: the production server in a
 * cgroup shaped like fly.toml's [[vm]] (1 CPU, 512 MB, no swap) serves 60 s of mixed traffic
 * at 50 keep-alive connections (RELIABILITY_LOAD_SECONDS to change it): visitors on the landing
 * page, customers on their dashboard, the availability, their bookings and booking, an admin on
 * the tabs, logins. No OOM kill, no 5xx, no connection error or timeout, every acknowledged
 * booking stored, resident memory under 400 MB. It prints the latency of each page and the
 * memory's course for docs/benchmarks.md.
 */
const SECONDS = Number(process.env.RELIABILITY_LOAD_SECONDS || 60);
const WARM_UP_SECONDS = 10;
// The bar is the VM's: well inside its 512 MB. (On one CPU the heap is still settling after the
// warm-up, 141-161 MB in the first third and 207-212 MB in the last in two runs, so a ratio of
// peaks says little about leaks here: it is printed, not asserted.)
const RSS_CAP_MB = 400;
// A slow answer is a latency to report, not a lost request: only one this late counts as lost.
// Logins wait longest (argon2 on the one CPU): a p99 of 17 s on a quiet machine, 31 s on a
// loaded one.
const TIMEOUT_SECONDS = 60;

const cgroup = createFlyCgroup("load");
// Registered first, so it runs last (after hooks run in reverse): once the server is gone.
afterAll(() => cgroup.remove());
const { dbPath, launch } = databaseForThisFile("load");

type Context = { customer?: Customer; slot?: Slot };
type Request = autocannon.Request;

it(`serves ${SECONDS} s of mixed load at 50 connections on a Fly-sized machine: no OOM, no 5xx, nothing lost, under ${RSS_CAP_MB} MB`, async () => {
  const running = await launch({}, { cgroupProcs: cgroup.procs });
  const customers: Customer[] = [];
  for (let i = 0; i < 10; i += 1) customers.push(await signUp(running.url));
  const admin = await signUp(running.url);
  const writer = openDatabaseFile(dbPath);
  writer.update(users).set({ isAdmin: true }).where(eq(users.id, admin.id)).run();
  writer.$client.close();
  const login = customers[0] as Customer;

  // Each connection acts as one customer (round robin), booking slots no one else gets.
  let assigned = 0;
  const customerOf = (context: Context) => {
    context.customer ??= customers[assigned++ % customers.length] as Customer;
    return context.customer;
  };
  const asCustomer = (request: Request, context: object): Request => ({
    ...request,
    headers: { ...request.headers, cookie: customerOf(context as Context).cookie },
  });
  const asAdmin = (request: Request): Request => ({
    ...request,
    headers: { ...request.headers, cookie: admin.cookie },
  });
  const nextSlot = slotSequence();
  const acked: AckedBooking[] = [];
  const statuses: Record<string, Record<number, number>> = {};
  const counted =
    (name: string, then?: (status: number, body: string, context: Context) => void) =>
    (status: number, body: string, context: object) => {
      const perStatus = statuses[name] ?? {};
      perStatus[status] = (perStatus[status] ?? 0) + 1;
      statuses[name] = perStatus;
      then?.(status, body, context as Context);
    };

  /** One page (or call) of the mix: its own connections, so its latency is its own. */
  const pages: { name: string; connections: number; requests: Request[] }[] = [
    {
      name: "/ (visitor)",
      connections: 14,
      requests: [{ method: "GET", path: "/", onResponse: counted("/ (visitor)") }],
    },
    {
      name: "/dashboard",
      connections: 10,
      requests: [
        {
          method: "GET",
          path: "/dashboard",
          setupRequest: asCustomer,
          onResponse: counted("/dashboard"),
        },
      ],
    },
    {
      name: "GET /api/availability",
      connections: 4,
      requests: [
        {
          method: "GET",
          path: `/api/availability?date=${earliestBookableDate(Date.now())}&hours=2`,
          onResponse: counted("GET /api/availability"),
        },
      ],
    },
    {
      name: "GET /api/bookings",
      connections: 4,
      requests: [
        {
          method: "GET",
          path: "/api/bookings",
          setupRequest: asCustomer,
          onResponse: counted("GET /api/bookings"),
        },
      ],
    },
    {
      name: "POST /api/bookings",
      connections: 6,
      requests: [
        {
          method: "POST",
          path: "/api/bookings",
          setupRequest: (request, context) => {
            const slot = nextSlot();
            (context as Context).slot = slot;
            const signedIn = asCustomer(request, context);
            return {
              ...signedIn,
              headers: { ...signedIn.headers, "content-type": "application/json" },
              body: JSON.stringify(bookingBody(slot)),
            };
          },
          onResponse: counted("POST /api/bookings", (status, body, context) => {
            if (status !== 201 || !context.customer || !context.slot) return;
            const id = Number((JSON.parse(body) as { id: number }).id);
            acked.push({ id, userId: context.customer.id, ...context.slot });
          }),
        },
      ],
    },
    {
      name: "admin tabs",
      connections: 6,
      requests: ["/admin/bookings", "/admin/sessions", "/admin/sales", "/admin/users"].map(
        (path) => ({
          method: "GET",
          path,
          setupRequest: asAdmin,
          onResponse: counted("admin tabs"),
        }),
      ),
    },
    {
      name: "POST /api/login",
      connections: 6,
      requests: [
        {
          method: "POST",
          path: "/api/login",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: login.username, password: login.password }),
          onResponse: counted("POST /api/login"),
        },
      ],
    },
  ];
  const connections = pages.reduce((sum, page) => sum + page.connections, 0);
  expect(connections).toBe(50);

  const load = (seconds: number) =>
    Promise.all(
      pages.map((page) =>
        autocannon({
          url: running.url,
          connections: page.connections,
          duration: seconds,
          timeout: TIMEOUT_SECONDS,
          requests: page.requests,
        }),
      ),
    );

  // The same traffic first fills the heap to its working size (JIT, caches, V8 growing its
  // spaces), so the measured run compares steady state with steady state.
  const warmUp = await load(WARM_UP_SECONDS);
  // Resident memory in kB, every 250 ms while the measured load runs.
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(running.rssKb()), 250);
  let results: autocannon.Result[];
  try {
    results = await load(SECONDS);
  } finally {
    clearInterval(sampler);
  }
  const peakRssMb = Math.round(running.peakRssKb() / 1024);

  const third = Math.floor(rss.length / 3);
  const firstPeak = Math.max(...rss.slice(0, third));
  const lastPeak = Math.max(...rss.slice(-third));
  const missing = inspect(dbPath, (db) => ({
    integrity: integrityCheck(db),
    bookings: missingBookings(db, acked),
  }));
  const rows = results.map((result, index) => {
    const page = pages[index] as (typeof pages)[number];
    return (
      `| ${page.name} | ${page.connections} | ${result.requests.total} | ${Math.round(result.requests.average)} | ` +
      `${result.latency.p50} ms | ${result.latency.p99} ms | ${result.latency.max} ms | ` +
      `${result.timeouts} | ${result["5xx"]} |`
    );
  });
  console.log(
    [
      `Fly-sized machine (${cgroup.shape.cpus} CPU, ${cgroup.shape.memoryMb} MB), ${SECONDS} s, ${connections} connections:`,
      "| Page | connections | answered | req/s | p50 | p99 | max | timeouts | 5xx |",
      "|---|---|---|---|---|---|---|---|---|",
      ...rows,
      `peak RSS ${peakRssMb} MB (first-third peak ${Math.round(firstPeak / 1024)} MB, last-third ` +
        `${Math.round(lastPeak / 1024)} MB), cgroup peak ${cgroup.peakMemoryMb()} MB with page cache, ` +
        `${cgroup.oomKills()} OOM kills; ${acked.length} bookings acknowledged, ` +
        `${missing.bookings.length} missing; answers ${JSON.stringify(statuses)}`,
    ].join("\n"),
  );

  expect(cgroup.oomKills()).toBe(0);
  for (const result of [...warmUp, ...results]) {
    expect(result["5xx"]).toBe(0);
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
  }
  // Every kind of request was served, and bookings were really made under the load.
  for (const page of pages) expect(Object.keys(statuses[page.name] ?? {})).not.toEqual([]);
  expect(statuses["/ (visitor)"]?.[200]).toBeGreaterThan(0);
  expect(statuses["/dashboard"]?.[200]).toBeGreaterThan(0);
  expect(statuses["admin tabs"]?.[200]).toBeGreaterThan(0);
  expect(statuses["POST /api/login"]?.[200]).toBeGreaterThan(0);
  expect(acked.length).toBeGreaterThan(0);
  expect(missing.bookings).toEqual([]);
  expect(missing.integrity).toBe("ok");
  expect(third).toBeGreaterThan(0);
  expect(peakRssMb).toBeLessThan(RSS_CAP_MB);
  // Still healthy afterwards.
  expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
});
