/**
 * `npm run bench`: the budgets of docs/quality.md measured against the production build.
 *
 *   npm run bench                        # builds first, about five minutes
 *   BENCH_DURATION=10 BENCH_LIGHTHOUSE_RUNS=5 npm run bench
 *
 * For each scale (100, then 100,000 bookings) it starts `node server.js` on a fresh SQLite
 * file, signs up a customer, a second customer who books and an admin through the API, seeds
 * the bookings with plain SQL, and measures: first-load bytes per page and Lighthouse (at the
 * first scale), then autocannon on each endpoint beside a bare node:http server running the
 * same SQL on the same file, and the server's peak memory. It prints a summary and writes the
 * run at the top of docs/benchmarks.md.
 *
 * Environment: BENCH_DURATION (seconds per autocannon run, default 5), BENCH_LIGHTHOUSE_RUNS
 * (default 3; 0 skips Lighthouse), BENCH_CONNECTIONS (default "1,10,50"), BENCH_SKIP_BUILD=1 to
 * reuse build/, BENCH_NO_WRITE=1 to leave docs/benchmarks.md alone. For a quick check of the
 * seeding and the endpoint list (not a measurement): BENCH_SCALES (default "100,100000") and
 * BENCH_ONLY (a regular expression on endpoint ids), e.g.
 *
 *   BENCH_SCALES=50,500 BENCH_DURATION=1 BENCH_CONNECTIONS=10 BENCH_LIGHTHOUSE_RUNS=0 \
 *     BENCH_ONLY=admin BENCH_NO_WRITE=1 npm run bench
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { lighthouseMedians } from "./bench/lighthouse";
import { type LoadResult, type LoadTarget, load } from "./bench/load";
import { describeMachine } from "./bench/machine";
import { adminOnlyChunks, measurePage } from "./bench/pages";
import { type BenchProcess, PROJECT_ROOT, startApp, startBare } from "./bench/processes";
import {
  type BenchResults,
  type EndpointSpec,
  type PageSpec,
  printSummary,
  writeReport,
} from "./bench/report";
import { seedBookings } from "./bench/seed";

const DURATION = Number(process.env.BENCH_DURATION || 5);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS || 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS || "1,10,50").split(",").map(Number);
/** The scale comparison runs at one connection count, to keep the run short. */
const SCALE_CONNECTIONS = CONNECTIONS.includes(10) ? 10 : (CONNECTIONS[0] ?? 10);
const SCALES = (process.env.BENCH_SCALES || "100,100000").split(",").map(Number);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;

/** Every page whose first load is measured; later issues add their admin pages here. */
const PAGES: PageSpec[] = [
  { path: "/", as: "visitor", lighthouse: true, budget: { jsKb: 130, cssKb: 15 } },
  { path: "/auth", as: "visitor", lighthouse: true },
  { path: "/dashboard", as: "customer", lighthouse: true },
  { path: "/dashboard?tab=profile", as: "customer" },
  { path: "/dashboard?tab=support", as: "customer" },
  // /admin and /admin/dashboard only redirect to /admin/bookings now.
  { path: "/admin/bookings", as: "admin" },
  { path: "/admin/sales", as: "admin" },
];

/**
 * Every admin tab's first page and the admin JSON lists, each held to 2x between the scales
 * (docs/quality.md). The sales export has no bar: a file of a period grows with the payments in
 * it by nature (a month's export is timed, whose rows differ between the seeded calendars).
 */
const ADMIN_LISTS: { id: string; path: string; json?: boolean; scaleBar?: boolean }[] = [
  { id: "admin-bookings", path: "/admin/bookings" },
  { id: "admin-bookings-confirmed", path: "/admin/bookings?status=CONFIRMED" },
  { id: "admin-bookings-members", path: "/admin/bookings?membership=members" },
  { id: "admin-sessions", path: "/admin/sessions" },
  { id: "admin-sales", path: "/admin/sales" },
  { id: "admin-sales-month", path: "/admin/sales?period=month" },
  { id: "admin-users", path: "/admin/users" },
  { id: "admin-coupons", path: "/admin/coupons" },
  { id: "admin-services", path: "/admin/services" },
  { id: "admin-support", path: "/admin/support" },
  { id: "admin-emails", path: "/admin/emails" },
  { id: "admin-blocked-times", path: "/admin/blocked-times" },
  { id: "admin-api-bookings", path: "/api/admin/bookings?page=1", json: true },
  { id: "admin-api-payments", path: "/api/admin/payments?page=1", json: true },
  { id: "admin-sales-export", path: "/admin/sales/export?period=month", scaleBar: false },
];
const isAdminRoute = (routeId: string) => /(^|\/)admin/.test(routeId);

type Actors = { customer: Actor; booker: Actor; admin: Actor };
type Actor = { id: number; cookie: string; sessionId: string };

/** Two-hour slots far beyond the seeded calendar, one per booking request, never reused. */
function slotSource(firstDay: string) {
  const times = ["04:00", "06:00", "08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00"];
  let next = 0;
  return () => {
    const day = addStudioDays(firstDay, Math.floor(next / times.length));
    const time = times[next % times.length] ?? "10:00";
    next += 1;
    return { day, time };
  };
}

function bookingBody(slot: () => { day: string; time: string }) {
  return () => {
    const { day, time } = slot();
    return JSON.stringify({
      firstName: "Bench",
      lastName: "Booker",
      businessName: "Load Test Audio",
      phoneNumber: "404-555-0100",
      email: "booker@example.com",
      stakeholder: "no",
      recordingDate: day,
      recordingTime: time,
      guestCount: "1",
      hoursNeeded: "2",
      isRetainer: false,
    });
  };
}

/** The endpoints under load: the app's request and the bare server's equivalent, if any. */
function endpoints(app: BenchProcess, actors: Actors, availabilityDate: string, now: number) {
  const earliest = earliestBookableDate(now);
  const appSlots = slotSource(addStudioDays(earliest, 400));
  const bareSlots = slotSource(addStudioDays(earliest, 4000));
  const json = { "Content-Type": "application/json", Origin: app.url };
  const list: (EndpointSpec & { app: LoadTarget; bare?: LoadTarget })[] = [
    { id: "landing", name: "Landing page `GET /`", app: { method: "GET", path: "/" } },
    {
      // The cheapest JSON route (one SELECT 1): the floor the framework sets for every other.
      id: "health",
      name: "Health check `GET /healthz`",
      app: { method: "GET", path: "/healthz" },
      bare: { method: "GET", path: "/healthz" },
    },
    {
      id: "availability",
      name: "Availability `GET /api/availability`",
      json: true,
      scaleBar: true,
      app: { method: "GET", path: `/api/availability?date=${availabilityDate}&hours=2` },
      bare: { method: "GET", path: `/api/availability?date=${availabilityDate}&hours=2` },
    },
    {
      id: "list",
      name: "Own bookings `GET /api/bookings`",
      json: true,
      scaleBar: true,
      app: { method: "GET", path: "/api/bookings", headers: { Cookie: actors.customer.cookie } },
      bare: {
        method: "GET",
        path: "/api/bookings",
        headers: { "X-Bench-Session": actors.customer.sessionId },
      },
    },
    {
      id: "create",
      name: "Booking creation `POST /api/bookings`",
      json: true,
      app: {
        method: "POST",
        path: "/api/bookings",
        headers: { ...json, Cookie: actors.booker.cookie },
        body: bookingBody(appSlots),
      },
      bare: {
        method: "POST",
        path: "/api/bookings",
        headers: { ...json, "X-Bench-Session": actors.booker.sessionId },
        body: bookingBody(bareSlots),
      },
    },
    ...ADMIN_LISTS.map((admin) => ({
      id: admin.id,
      name: `Admin \`GET ${admin.path}\``,
      json: admin.json,
      scaleBar: admin.scaleBar ?? true,
      app: { method: "GET" as const, path: admin.path, headers: { Cookie: actors.admin.cookie } },
    })),
  ];
  return ONLY ? list.filter((endpoint) => ONLY.test(endpoint.id)) : list;
}

async function signUpActors(app: BenchProcess, dbPath: string): Promise<Actors> {
  const signUp = async () => {
    const response = await fetch(`${app.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url },
      body: JSON.stringify(registrationPayload()),
    });
    if (response.status !== 201) throw new Error(`Sign-up answered ${response.status}`);
    const { id } = (await response.json()) as { id: number };
    return { id, cookie: cookiesFrom(response) };
  };
  const [customer, booker, admin] = [await signUp(), await signUp(), await signUp()];
  const db = new Database(dbPath);
  db.pragma("busy_timeout = 5000");
  db.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").run(admin.id);
  const sessionOf = (userId: number) =>
    (db.prepare("SELECT id FROM sessions WHERE user_id = ?").get(userId) as { id: string }).id;
  const actors = {
    customer: { ...customer, sessionId: sessionOf(customer.id) },
    booker: { ...booker, sessionId: sessionOf(booker.id) },
    admin: { ...admin, sessionId: sessionOf(admin.id) },
  };
  db.close();
  return actors;
}

function log(message: string) {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function benchScale(scale: number, results: BenchResults, first: boolean) {
  const dbPath = join(tmpdir(), `studio-bench-${scale}-${randomUUID()}.db`);
  const app = await startApp(dbPath);
  let bare: BenchProcess | undefined;
  try {
    const actors = await signUpActors(app, dbPath);
    const now = Date.now();
    const availabilityDate = addStudioDays(earliestBookableDate(now), 2);
    const seedStart = performance.now();
    seedBookings(dbPath, { count: scale, customerId: actors.customer.id, availabilityDate, now });
    log(`seeded ${scale} bookings in ${Math.round(performance.now() - seedStart)} ms`);

    if (first) {
      const adminChunks = adminOnlyChunks(isAdminRoute);
      results.adminOnlyChunks = [...adminChunks];
      for (const page of PAGES) {
        const cookie = page.as === "visitor" ? undefined : actors[page.as].cookie;
        const bytes = await measurePage(app.url, page.path, cookie);
        const leaked = page.as === "admin" ? [] : bytes.assets.filter((a) => adminChunks.has(a));
        results.pages.push({ spec: page, bytes, adminChunksLoaded: leaked });
        log(`bytes ${page.path}: JS ${bytes.js} CSS ${bytes.css} HTML ${bytes.html}`);
      }
      for (const page of PAGES.filter((p) => p.lighthouse && LIGHTHOUSE_RUNS > 0)) {
        const cookie = page.as === "visitor" ? undefined : actors[page.as].cookie;
        const url = app.url.replace("127.0.0.1", "localhost") + page.path;
        const scores = await lighthouseMedians(url, LIGHTHOUSE_RUNS, cookie);
        results.lighthouse.push({ path: page.path, ...scores });
        log(`lighthouse ${page.path}: performance ${scores.performance}`);
      }
    }

    bare = await startBare(dbPath);
    const connections = first ? CONNECTIONS : [SCALE_CONNECTIONS];
    const scaleResults: Record<string, Record<number, { app: LoadResult; bare?: LoadResult }>> = {};
    for (const endpoint of endpoints(app, actors, availabilityDate, now)) {
      results.endpoints[endpoint.id] ??= endpoint;
      const byConnections: Record<number, { app: LoadResult; bare?: LoadResult }> = {};
      // A short warm-up: the first requests pay for JIT and SQLite's page cache.
      await load(app.url, endpoint.app, 1, 1);
      if (endpoint.bare) await load(bare.url, endpoint.bare, 1, 1);
      for (const c of connections) {
        const appResult = await load(app.url, endpoint.app, c, DURATION);
        const bareResult = endpoint.bare
          ? await load(bare.url, endpoint.bare, c, DURATION)
          : undefined;
        byConnections[c] = { app: appResult, bare: bareResult };
        log(
          `${scale} ${endpoint.id} c=${c}: app ${Math.round(appResult.rps)}/s` +
            (bareResult ? `, bare ${Math.round(bareResult.rps)}/s` : ""),
        );
      }
      scaleResults[endpoint.id] = byConnections;
    }
    results.scales.push({ bookings: scale, load: scaleResults, peakRssMb: app.peakRssMb() });
  } catch (error) {
    console.error(app.output());
    throw error;
  } finally {
    await bare?.stop();
    await app.stop();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  }
}

async function main() {
  const started = new Date();
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    log("npm run build");
    execFileSync("npm", ["run", "build"], { cwd: PROJECT_ROOT, stdio: "ignore" });
  }
  const results: BenchResults = {
    date: started,
    command: "npm run bench",
    settings: {
      duration: DURATION,
      lighthouseRuns: LIGHTHOUSE_RUNS,
      connections: CONNECTIONS,
      scaleConnections: SCALE_CONNECTIONS,
    },
    machine: describeMachine(),
    pages: [],
    adminOnlyChunks: [],
    lighthouse: [],
    endpoints: {},
    scales: [],
  };
  for (const [index, scale] of SCALES.entries()) await benchScale(scale, results, index === 0);
  printSummary(results);
  if (process.env.BENCH_NO_WRITE !== "1") {
    writeReport(join(PROJECT_ROOT, "docs", "benchmarks.md"), results);
    log("wrote docs/benchmarks.md");
  }
}

await main();
