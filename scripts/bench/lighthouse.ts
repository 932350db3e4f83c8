import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, CHROMIUM_LAUNCH_OPTIONS } from "#tests/e2e/env";

/**
 * Lighthouse 12 with its default config (the mobile preset: a mid-range phone on slow 4G,
 * simulated), in Debian's chromium headless, with the flags that keep it off the closed
 * internet (docs/quality.md "Browser tests here"). A fresh browser and profile per run, so no run
 * starts with another's cache.
 */
export type LighthouseRun = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Audits that cost points in accessibility, best practices or SEO: what to fix. */
  failing: string[];
};

export async function runLighthouse(url: string, cookie?: string): Promise<LighthouseRun> {
  const userDataDir = mkdtempSync(join(tmpdir(), "bench-lighthouse-"));
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? CHROMIUM_LAUNCH_OPTIONS.executablePath,
    chromeFlags: CHROMIUM_FLAGS,
    userDataDir,
    logLevel: "silent",
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      extraHeaders: cookie ? { Cookie: cookie } : undefined,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`Lighthouse on ${url}: ${runtimeError.message}`);
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const value = (id: string) => audits[id]?.numericValue ?? Number.NaN;
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
      lcpMs: value("largest-contentful-paint"),
      tbtMs: value("total-blocking-time"),
      cls: value("cumulative-layout-shift"),
      failing: ["accessibility", "best-practices", "seo"].flatMap((id) =>
        (categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${id}: ${ref.id}`),
      ),
    };
  } finally {
    chrome.kill();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The median of each figure over `runs` runs. */
export async function lighthouseMedians(
  url: string,
  runs: number,
  cookie?: string,
): Promise<LighthouseRun & { runs: LighthouseRun[] }> {
  const all: LighthouseRun[] = [];
  for (let i = 0; i < runs; i += 1) all.push(await withRetries(() => runLighthouse(url, cookie)));
  const pick = (key: Exclude<keyof LighthouseRun, "failing">) => median(all.map((run) => run[key]));
  return {
    performance: pick("performance"),
    accessibility: pick("accessibility"),
    bestPractices: pick("bestPractices"),
    seo: pick("seo"),
    lcpMs: pick("lcpMs"),
    tbtMs: pick("tbtMs"),
    cls: pick("cls"),
    failing: [...new Set(all.flatMap((run) => run.failing))],
    runs: all,
  };
}

/** Chromium on a busy machine now and then loses a trace (NO_NAVSTART): such a run is redone. */
async function withRetries<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.warn(`${error instanceof Error ? error.message : error}: running it again`);
    }
  }
}
