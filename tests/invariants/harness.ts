import { performance } from "node:perf_hooks";
import fc from "fast-check";
import {
  Advance,
  COMMAND,
  deliver,
  registerCustomer,
  type Step,
  verify,
} from "#tests/invariants/commands";
import { INVARIANTS, INVARIANT_NAMES } from "#tests/invariants/invariants";
import type { ProviderMode } from "#tests/invariants/provider";
import { InvariantViolation, World } from "#tests/invariants/world";

/**
 * The property run by run.ts: one history = a provider kind, a scheduler for the interleavings
 * and a list of commands, run from an empty database, then settled (every pending webhook
 * delivered, the clock moved past the claim lease and the background sweep run) and checked
 * once more.
 */
export type HarnessOptions = {
  runs: number;
  seed: number | undefined;
  path: string | undefined;
  replayPath: string | undefined;
  only: string[] | null;
  maxCommands: number;
  list: boolean;
  stats: boolean;
  started: number;
};

export async function runHarness(options: HarnessOptions): Promise<number> {
  if (options.list) {
    for (const invariant of INVARIANTS) console.log(`${invariant.name}: ${invariant.describe}`);
    return 0;
  }
  const unknown = (options.only ?? []).filter((name) => !INVARIANT_NAMES.includes(name));
  if (unknown.length > 0) {
    console.error(
      `Unknown invariant(s): ${unknown.join(", ")}. Known: ${INVARIANT_NAMES.join(", ")}`,
    );
    return 2;
  }

  const world = new World();
  world.only = options.only ? new Set(options.only) : null;
  // The workflows that read the clock themselves (checkout, fulfilment, staff status changes)
  // read this one.
  const realNow = Date.now;
  Date.now = () => world.now;

  let histories = 0;
  const property = fc.asyncProperty(
    fc.oneof(
      { arbitrary: fc.constant<ProviderMode>("hosted"), weight: 2 },
      { arbitrary: fc.constant<ProviderMode>("card"), weight: 1 },
    ),
    fc.scheduler(),
    fc.commands([COMMAND], {
      maxCommands: options.maxCommands,
      size: "max",
      ...(options.replayPath ? { replayPath: options.replayPath } : {}),
    }),
    async (mode, scheduler, commands) => {
      histories += 1;
      world.reset(mode, scheduler);
      registerCustomer(world, "c1", false, false);
      world.log("c1 registered (plain customer)");
      await fc.asyncModelRun(() => ({ model: world, real: world }), commands);
      await settleWorld(world);
    },
  );

  const seed = options.seed ?? (realNow() ^ (Math.random() * 0x100000000)) | 0;
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed,
    ...(options.path ? { path: options.path } : {}),
    verbose: 0,
  });
  Date.now = realNow;
  const seconds = ((performance.now() - options.started) / 1000).toFixed(1);
  if (options.stats) {
    for (const [key, count] of [...world.outcomes].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`${String(count).padStart(6)}  ${key}`);
    }
  }

  if (!details.failed) {
    console.log(
      `${histories} histories, ${world.steps} steps, ${world.checks} invariant checks in ${seconds} s (seed ${seed}${options.only ? `, only ${options.only.join(",")}` : ""})`,
    );
    return 0;
  }

  const error = details.errorInstance;
  const [mode, , commands] = details.counterexample ?? [];
  const printed = commands ? fc.stringify(commands) : "";
  const replayPath = /replayPath="([^"]+)"/.exec(printed)?.[1];
  const replay = [
    "npm run test:invariants --",
    `--seed=${details.seed}`,
    details.counterexamplePath ? `--path=${details.counterexamplePath}` : "",
    replayPath ? `--replay-path=${replayPath}` : "",
    options.only ? `--only ${options.only.join(",")}` : "",
    options.maxCommands !== 60 ? `--max-commands ${options.maxCommands}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  console.log(
    `FAILED at history ${details.numRuns} of ${options.runs}, shrunk in ${details.numShrinks} steps (${histories} histories run in all) in ${seconds} s`,
  );
  if (error instanceof InvariantViolation) {
    console.log(`\nViolated invariant: ${error.invariant}`);
    console.log(`  ${error.message.replace(/^\[[^\]]+\] /, "")}`);
    console.log(`\nShrunk history (provider ${String(mode)}):`);
    for (const line of error.trace) console.log(`  ${line}`);
  } else {
    console.log("\nThe history threw:");
    console.log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
  console.log(`\nCommands as generated: ${printed.replace(/\/\*replayPath=.*?\*\//, "")}`);
  console.log(`\nReplay: ${replay}`);
  return 1;
}

/**
 * The end of a history: webhooks arrive at last, the clock passes the claim lease and the
 * settle window, the background sweep runs; then everything must hold.
 */
async function settleWorld(world: World) {
  world.log("#end the world settles:");
  for (const event of world.fake.events.filter((e) => e.delivered === 0)) {
    const outcome = await world.settle(deliver(world, event));
    world.log(`    || provider delivers ${event.id} (${event.checkoutId}) late -> ${outcome}`);
  }
  const step: Step = new Advance({ minutes: 16, sweep: true });
  await world.settle(step.perform(world, "    || "));
  world.flushCalls();
  verify(world);
}
