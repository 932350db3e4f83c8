import { execFileSync } from "node:child_process";
import { cpus, totalmem } from "node:os";

/** What the figures were measured on: they only compare within one run on one machine. */
export type Machine = {
  cores: number;
  cpu: string;
  memoryGb: number;
  node: string;
  chromium: string;
};

export function describeMachine(): Machine {
  let chromium = "unknown";
  try {
    chromium = execFileSync(process.env.CHROME_PATH ?? "/usr/bin/chromium", ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .split(" built on")[0]
      ?.trim() as string;
  } catch {
    // reported as unknown
  }
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    chromium,
  };
}
