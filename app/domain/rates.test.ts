import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOURLY_RATES } from "#app/domain/rates";

/** Every source file of the app but the tests: where copy could type a rate in. */
function appSources(dir = "app"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return appSources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("hourly rates", () => {
  it("are written only in the domain, so a rate change is one edit", () => {
    const typed = Object.values(HOURLY_RATES).map((rate) => new RegExp(`\\$${rate}(?!\\d)`));
    const copies = appSources().filter((path) =>
      typed.some((rate) => rate.test(readFileSync(path, "utf8"))),
    );
    expect(copies).toEqual([]);
  });
});
