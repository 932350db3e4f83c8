/**
 * Issue 28's ratios (limits.ts) for several checkouts in one run. After `npm run build` in each,
 * as root:
 *
 *   npm run bench:limits [-- label=checkout ...]
 *
 * Each checkout's app in a Fly-shaped cgroup (fly-app.ts), run with the node flags of its own
 * `npm start`, on 100 bookings; the unit and the same-bytes server measured beside each, in
 * cgroups of their own. BENCH_DURATION seconds per run (default 10). Prints one table, a
 * column per checkout.
 */
import { type FlyServer, startFlyApp, startFlyBare, stopAll } from "./fly-app";
import { type LimitsResult, measureLimits } from "./limits";
import { PROJECT_ROOT } from "./processes";

const DURATION = Number(process.env.BENCH_DURATION || 10);

async function measure(label: string, root: string, index: number): Promise<LimitsResult> {
  const app = await startFlyApp(`limits-${index}`, root);
  const references: FlyServer[] = [];
  try {
    return await measureLimits(
      app.server,
      {
        landing: { method: "GET", path: "/" },
        dashboard: { method: "GET", path: "/dashboard", headers: { Cookie: app.customerCookie } },
        adminTab: { method: "GET", path: "/admin/bookings", headers: { Cookie: app.adminCookie } },
        availability: {
          method: "GET",
          path: `/api/availability?date=${app.availabilityDate}&hours=2`,
        },
      },
      async (name, env) => {
        const reference = await startFlyBare(`${name}-${index}`, app, env);
        references.push(reference);
        return reference.server;
      },
      DURATION,
      (message) => console.error(`[${label}] ${message}`),
    );
  } finally {
    for (const reference of references) await reference.stop();
    await app.stop();
  }
}

const checkouts = (process.argv.slice(2).length ? process.argv.slice(2) : ["this="]).map((arg) => {
  const [label = "", root = ""] = arg.split("=");
  return { label, root: root || PROJECT_ROOT };
});
try {
  const results: LimitsResult[] = [];
  for (const [index, { label, root }] of checkouts.entries()) {
    results.push(await measure(label, root, index));
  }
  const rows: string[][] = [];
  for (const [i, figure] of (results[0]?.cpu ?? []).entries()) {
    rows.push([
      `${figure.name}: CPU per answer (budget <= ${figure.budget}x)`,
      ...results.map((r) => {
        const cell = r.cpu[i];
        return cell ? `${(cell.ms / cell.unitMs).toFixed(1)}x (${cell.ms.toFixed(2)} ms)` : "";
      }),
    ]);
  }
  rows.push([
    "Landing capacity / the same bytes from memory (budget >= 0.33)",
    ...results.map((r) =>
      r.capacity
        ? `${(r.capacity.appRps / r.capacity.bytesRps).toFixed(2)} (${Math.round(r.capacity.appRps)} / ${Math.round(r.capacity.bytesRps)} a second)`
        : "",
    ),
  ]);
  for (const [i, figure] of (results[0]?.openLoop ?? []).entries()) {
    rows.push([
      `${figure.name}: p99 at half capacity, open loop (budget <= 250 ms)`,
      ...results.map((r) => {
        const cell = r.openLoop[i];
        if (!cell) return "";
        const failed = cell.serverErrors + cell.timeouts + cell.errors;
        return `${Math.round(cell.p99)} ms at ${cell.rate.toFixed(1)}/s (sender's lag ${Math.round(cell.senderLagP99)} ms)${failed ? `, ${failed} failed` : ""}`;
      }),
    ]);
  }
  console.log(`| Figure | ${checkouts.map((c) => c.label).join(" | ")} |`);
  console.log(`|---|${checkouts.map(() => "---:|").join("")}`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
} finally {
  await stopAll();
}
