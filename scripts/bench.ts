/**
 * `npm run bench`: the budgets of docs/quality.md measured against the production build, on
 * the machine as it is and on the shape production runs on.
 *
 *   npm run bench                        # builds first; about 20 minutes with the defaults
 *   BENCH_DURATION=10 BENCH_LIGHTHOUSE_RUNS=5 npm run bench
 *   BENCH_SCALES=100 BENCH_DURATION=3 BENCH_LIGHTHOUSE_RUNS=1 BENCH_NO_WRITE=1 npm run bench
 *                                        # end to end in about 10 minutes, 100 bookings only
 *
 * For each scale (100, then 100,000 bookings) and shape it starts `node server.js` on a fresh
 * SQLite file, signs up a customer, a second customer who books, one who logs in and an admin
 * through the API, seeds the bookings with plain SQL, and measures with autocannon. Two shapes:
 * "host", the server unconstrained on this machine, and "fly", the server in a cgroup shaped
 * like fly.toml's [[vm]] (1 CPU as a CFS quota, 512 MB, no swap: tests/setup/fly-machine.ts,
 * which the reliability load test uses too; root only), each removed at the end, on an error
 * and on Ctrl-C. At the first scale, in each shape: `/`, `/auth`, `/dashboard`, an admin tab,
 * the availability, the customer's own bookings, booking creation (a different free slot per
 * request) and login (the right password) at 1, 10 and 50 connections, the JSON ones beside a
 * bare node:http server running the same SQL on the same file (in a Fly-shaped cgroup of its
 * own in the fly shape). In the main shape only (host; without it the first of BENCH_SHAPES):
 * first-load bytes per page and Lighthouse, and every admin tab and admin list at 10
 * connections, which the later scale repeats (main shape, 10 connections) for the 100 vs
 * 100,000 ratios. In the Fly shape, issue 28's ratios (scripts/bench/limits.ts): CPU per
 * answer against a bare server's, the landing page's capacity against the same bytes sent from
 * memory, and the p99 under arrivals at half the capacity. The server's peak memory (and the cgroup's
 * peak and OOM kills) after each run. It prints each budget's pass or fail and writes the run at
 * the top of docs/benchmarks.md.
 *
 * Time with the defaults: the load runs take about 13 minutes (host 39 runs of 5 s, then 14 admin
 * lists; fly 39 runs of 10 s; at 100,000 bookings 27 runs of 5 s; plus a 1 s warm-up per
 * endpoint), Lighthouse about 3, the build 1-2: about 20 minutes in all.
 *
 * Environment: BENCH_DURATION (seconds per autocannon run, default 5), BENCH_FLY_DURATION
 * (seconds per run in the Fly shape, default twice BENCH_DURATION: it answers fewer requests a
 * second), BENCH_SHAPES (default "host,fly"; "host"
 * alone where no cgroup can be made), BENCH_LIGHTHOUSE_RUNS (default 3; 0 skips Lighthouse),
 * BENCH_CONNECTIONS (default "1,10,50"), BENCH_SKIP_BUILD=1 to reuse build/, BENCH_NO_WRITE=1 to
 * leave docs/benchmarks.md alone. For a quick check of the seeding and the endpoint list (not a
 * measurement): BENCH_SCALES (default "100,100000") and BENCH_ONLY (a regular expression on
 * endpoint ids), e.g.
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
import { createFlyCgroup, type FlyCgroup, flyMachineShape } from "#tests/setup/fly-machine";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { lighthouseMedians } from "./bench/lighthouse";
import { measureLimits } from "./bench/limits";
import { type LoadResult, type LoadTarget, load, TIMEOUT_SECONDS } from "./bench/load";
import { describeMachine } from "./bench/machine";
import { adminOnlyChunks, measurePage } from "./bench/pages";
import { type BenchProcess, PROJECT_ROOT, startApp, startBare } from "./bench/processes";
import {
  type BenchResults,
  type BenchRun,
  type EndpointSpec,
  type PageSpec,
  printSummary,
  SHAPES,
  type ShapeId,
  writeReport,
} from "./bench/report";
import { seedBookings } from "./bench/seed";

const DURATION = Number(process.env.BENCH_DURATION || 5);
const FLY_DURATION = Number(process.env.BENCH_FLY_DURATION || 2 * DURATION);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS || 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS || "1,10,50").split(",").map(Number);
/** The scale comparison runs at one connection count, to keep the run short. */
const SCALE_CONNECTIONS = CONNECTIONS.includes(10) ? 10 : (CONNECTIONS[0] ?? 10);
const SCALES = (process.env.BENCH_SCALES || "100,100000").split(",").map(Number);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const SHAPE_IDS = (process.env.BENCH_SHAPES || "host,fly").split(",").map((id) => {
  if (!(id in SHAPES)) throw new Error(`BENCH_SHAPES: unknown shape ${id} (host, fly)`);
  return id as ShapeId;
});
/** Pages, Lighthouse, the admin lists and the later scales run in this shape only. */
const MAIN_SHAPE: ShapeId = SHAPE_IDS.includes("host") ? "host" : (SHAPE_IDS[0] ?? "host");

/** Every page whose first load is measured; later issues add their admin pages here. */
const PAGES: PageSpec[] = [
  { path: "/", as: "visitor", lighthouse: true, budget: { jsKb: 120, cssKb: 15 } },
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
 * The first is the admin tab measured at every connection count in every shape; the others run
 * at the scale comparison's connection count in the main shape.
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

type Actors = { customer: Actor; booker: Actor; signer: Actor; admin: Actor };
type Actor = { id: number; cookie: string; signInId: string; username: string; password: string };
type Endpoint = EndpointSpec & {
  app: LoadTarget;
  bare?: LoadTarget;
  /** Only at the scale comparison's connection count, in the main shape. */
  scaleOnly?: boolean;
};

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

/**
 * The endpoints under load, in the order they run: the app's request and the bare server's
 * equivalent, if any. The admin lists come before booking creation, which adds thousands of
 * bookings, and login last.
 */
function endpoints(app: BenchProcess, actors: Actors, availabilityDate: string, now: number) {
  const earliest = earliestBookableDate(now);
  const appSlots = slotSource(addStudioDays(earliest, 400));
  const bareSlots = slotSource(addStudioDays(earliest, 4000));
  const json = { "Content-Type": "application/json", Origin: app.url };
  const asCustomer = { Cookie: actors.customer.cookie };
  const list: Endpoint[] = [
    { id: "landing", name: "Landing page `GET /`", app: { method: "GET", path: "/" } },
    { id: "auth", name: "Sign-in page `GET /auth`", app: { method: "GET", path: "/auth" } },
    {
      id: "dashboard",
      name: "Dashboard `GET /dashboard`",
      app: { method: "GET", path: "/dashboard", headers: asCustomer },
    },
    ...ADMIN_LISTS.map((admin, index) => ({
      id: admin.id,
      name: `Admin \`GET ${admin.path}\``,
      json: admin.json,
      scaleBar: admin.scaleBar ?? true,
      scaleOnly: index > 0,
      app: { method: "GET" as const, path: admin.path, headers: { Cookie: actors.admin.cookie } },
    })),
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
      // The booking form's ask, from a customer: answered from the store as a visitor's is.
      id: "availability-customer",
      name: "Availability `GET /api/availability`, signed in",
      json: true,
      app: {
        method: "GET",
        path: `/api/availability?date=${availabilityDate}&hours=2`,
        headers: asCustomer,
      },
      bare: { method: "GET", path: `/api/availability?date=${availabilityDate}&hours=2` },
    },
    {
      // Asked in another order, the store keeps no copy (app/web/shared-pages.server.ts): the
      // busy ranges are read each time, the read the scale bar is for.
      id: "availability-computed",
      name: "Availability `GET /api/availability`, computed each time",
      json: true,
      scaleBar: true,
      app: { method: "GET", path: `/api/availability?hours=2&date=${availabilityDate}` },
      bare: { method: "GET", path: `/api/availability?date=${availabilityDate}&hours=2` },
    },
    {
      id: "list",
      name: "Own bookings `GET /api/bookings`",
      json: true,
      scaleBar: true,
      app: { method: "GET", path: "/api/bookings", headers: asCustomer },
      bare: {
        method: "GET",
        path: "/api/bookings",
        headers: { "X-Bench-Sign-In": actors.customer.signInId },
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
        headers: { ...json, "X-Bench-Sign-In": actors.booker.signInId },
        body: bookingBody(bareSlots),
      },
    },
    {
      // argon2 on every request: the costliest answer the site gives.
      id: "login",
      name: "Login `POST /api/login`",
      app: {
        method: "POST",
        path: "/api/login",
        headers: json,
        body: () =>
          JSON.stringify({ username: actors.signer.username, password: actors.signer.password }),
      },
    },
  ];
  return list.filter((endpoint) => !ONLY || ONLY.test(endpoint.id));
}

async function signUpActors(app: BenchProcess, dbPath: string): Promise<Actors> {
  const signUp = async () => {
    const payload = registrationPayload();
    const response = await fetch(`${app.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url },
      body: JSON.stringify(payload),
    });
    if (response.status !== 201) throw new Error(`Sign-up answered ${response.status}`);
    const { id } = (await response.json()) as { id: number };
    return { id, cookie: cookiesFrom(response), ...payload };
  };
  const [customer, booker, signer, admin] = [
    await signUp(),
    await signUp(),
    await signUp(),
    await signUp(),
  ];
  const db = new Database(dbPath);
  db.pragma("busy_timeout = 5000");
  db.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").run(admin.id);
  const withSignIn = (actor: typeof customer): Actor => ({
    id: actor.id,
    cookie: actor.cookie,
    username: actor.username,
    password: actor.password,
    signInId: (
      db.prepare("SELECT id FROM sign_ins WHERE user_id = ?").get(actor.id) as { id: string }
    ).id,
  });
  const actors = {
    customer: withSignIn(customer),
    booker: withSignIn(booker),
    signer: withSignIn(signer),
    admin: withSignIn(admin),
  };
  db.close();
  return actors;
}

function log(message: string) {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

const summarize = (result: LoadResult) =>
  `${Math.round(result.rps)}/s p99 ${result.p99} ms` +
  (result.non2xx + result.timeouts + result.errors > 0
    ? ` (non-2xx ${result.non2xx}, 5xx ${result.serverErrors}, timeouts ${result.timeouts}, errors ${result.errors})`
    : "");

/**
 * What to undo if the run stops half-way (an error, Ctrl-C): servers to stop, cgroups to
 * remove. Each run adds its own and takes them off once done.
 */
const cleanups = new Set<() => Promise<void>>();
async function cleanUp() {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    await cleanup().catch((error) => console.error(error));
  }
}
// Ctrl-C reaches this process more than once (from the terminal, and relayed by npm and tsx):
// a listener stays, or the second would end the process before the cgroups are gone.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping the servers and removing the cgroups`);
    void cleanUp().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  });
}
/** Makes something (`create`) and holds its `undo` for Ctrl-C until `release` undoes it. */
async function withCleanup<T>(create: () => Promise<T> | T, undo: (value: T) => Promise<void>) {
  const value = await create();
  const cleanup = () => undo(value);
  cleanups.add(cleanup);
  return {
    value,
    async release() {
      if (!cleanups.delete(cleanup)) return;
      await cleanup();
    },
  };
}

function flyCgroup(label: string): FlyCgroup {
  try {
    return createFlyCgroup(label);
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : error}; BENCH_SHAPES=host measures without it`,
    );
  }
}

async function benchRun(scale: number, shape: ShapeId, results: BenchResults, first: boolean) {
  const dbPath = join(tmpdir(), `studio-bench-${scale}-${shape}-${randomUUID()}.db`);
  const main = shape === MAIN_SHAPE;
  const duration = shape === "fly" ? FLY_DURATION : DURATION;
  const releases: (() => Promise<void>)[] = [];
  const owned = async <T>(create: () => Promise<T> | T, undo: (value: T) => Promise<void>) => {
    const { value, release } = await withCleanup(create, undo);
    releases.push(release);
    return value;
  };
  await owned(
    () => dbPath,
    async (path) => {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
    },
  );
  /** A server in this run's shape: in the Fly shape inside a cgroup of its own. */
  const startInShape = async (
    label: string,
    start: (cgroupProcs?: string[]) => Promise<BenchProcess>,
  ) => {
    const cgroup =
      shape === "fly"
        ? await owned(
            () => flyCgroup(label),
            (c) => c.remove(),
          )
        : undefined;
    const server = await owned(
      () => start(cgroup?.procs),
      (p) => p.stop(),
    );
    return { server, cgroup };
  };
  let app: BenchProcess | undefined;
  try {
    const started = await startInShape("bench-app", (procs) => startApp(dbPath, procs));
    app = started.server;
    const appCgroup = started.cgroup;
    const actors = await signUpActors(app, dbPath);
    const now = Date.now();
    const availabilityDate = addStudioDays(earliestBookableDate(now), 2);
    const seedStart = performance.now();
    seedBookings(dbPath, { count: scale, customerId: actors.customer.id, availabilityDate, now });
    log(`${shape}: seeded ${scale} bookings in ${Math.round(performance.now() - seedStart)} ms`);

    if (first && main) {
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
        log(
          `lighthouse ${page.path}: performance ${scores.performance}, LCP ${Math.round(scores.lcpMs)} ms`,
        );
      }
    }

    if (first && shape === "fly") {
      const asCustomer = { Cookie: actors.customer.cookie };
      results.limits = await measureLimits(
        app,
        {
          landing: { method: "GET", path: "/" },
          dashboard: { method: "GET", path: "/dashboard", headers: asCustomer },
          adminTab: {
            method: "GET",
            path: "/admin/bookings",
            headers: { Cookie: actors.admin.cookie },
          },
          availability: {
            method: "GET",
            path: `/api/availability?date=${availabilityDate}&hours=2`,
          },
        },
        async (label, env) =>
          (await startInShape(label, (procs) => startBare(dbPath, procs, env))).server,
        duration,
        log,
      );
    }

    // The bare baseline in the same shape: in the Fly shape a cgroup of its own, so each has
    // the one CPU the app has.
    const { server: bare } = await startInShape("bench-bare", (procs) => startBare(dbPath, procs));
    const run: BenchRun = { bookings: scale, shape, duration, load: {}, peakRssMb: 0 };
    const list = endpoints(app, actors, availabilityDate, now).filter((e) => main || !e.scaleOnly);
    for (const endpoint of list) {
      const { app: appTarget, bare: bareTarget, scaleOnly, ...spec } = endpoint;
      results.endpoints[endpoint.id] ??= spec;
      const byConnections: BenchRun["load"][string] = {};
      // A short warm-up: the first requests pay for JIT and SQLite's page cache.
      await load(app.url, appTarget, 1, 1);
      if (bareTarget) await load(bare.url, bareTarget, 1, 1);
      for (const c of first && !scaleOnly ? CONNECTIONS : [SCALE_CONNECTIONS]) {
        const appResult = await load(app.url, appTarget, c, duration);
        const bareResult = bareTarget ? await load(bare.url, bareTarget, c, duration) : undefined;
        byConnections[c] = { app: appResult, bare: bareResult };
        log(
          `${shape} ${scale} ${endpoint.id} c=${c}: app ${summarize(appResult)}` +
            (bareResult ? `, bare ${summarize(bareResult)}` : ""),
        );
      }
      run.load[endpoint.id] = byConnections;
    }
    run.peakRssMb = app.peakRssMb();
    if (appCgroup) {
      run.cgroup = {
        ...appCgroup.shape,
        peakMemoryMb: appCgroup.peakMemoryMb(),
        oomKills: appCgroup.oomKills(),
      };
    }
    results.runs.push(run);
  } catch (error) {
    if (app) console.error(app.output());
    throw error;
  } finally {
    // Servers first, then their cgroups, then the database file.
    for (const release of releases.reverse()) await release();
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
      flyDuration: FLY_DURATION,
      timeoutSeconds: TIMEOUT_SECONDS,
      lighthouseRuns: LIGHTHOUSE_RUNS,
      connections: CONNECTIONS,
      scaleConnections: SCALE_CONNECTIONS,
      shapes: SHAPE_IDS,
      mainShape: MAIN_SHAPE,
    },
    machine: describeMachine(),
    flyShape: SHAPE_IDS.includes("fly") ? flyMachineShape() : undefined,
    pages: [],
    adminOnlyChunks: [],
    lighthouse: [],
    endpoints: {},
    runs: [],
  };
  for (const [index, scale] of SCALES.entries()) {
    const first = index === 0;
    // The main shape first: pages and Lighthouse on a machine nothing else is loading yet.
    const shapes = first
      ? [MAIN_SHAPE, ...SHAPE_IDS.filter((s) => s !== MAIN_SHAPE)]
      : [MAIN_SHAPE];
    for (const shape of shapes) await benchRun(scale, shape, results, first);
  }
  printSummary(results);
  if (process.env.BENCH_NO_WRITE !== "1") {
    writeReport(join(PROJECT_ROOT, "docs", "benchmarks.md"), results);
    log("wrote docs/benchmarks.md");
  }
}

await main();
