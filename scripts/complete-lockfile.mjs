// Adds lockfile entries for platform packages our npm registry mirror does not carry.
//
// Why: packages such as rollup, biome and tailwind's oxide list one optional binary per
// platform. The registry reachable here only serves the Linux ones, so `npm install` leaves the
// others out of package-lock.json, and npm 11's `npm ci` then refuses the lockfile as "out of
// sync". An entry marked optional, with no tarball, satisfies that check; npm ci skips it on a
// platform it does not match (or gives up on it quietly when the registry has no such package).
// Run after changing dependencies: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;
let added = 0;

for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location}/node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) {
      throw new Error(`${location} wants ${name}@${spec}: only exact versions can be completed`);
    }
    packages[hoisted] = {
      version: spec,
      optional: true,
      ...(entry.dev ? { dev: true } : {}),
      ...(entry.devOptional ? { devOptional: true } : {}),
    };
    added += 1;
  }
}

// Keep the lockfile's key order stable (npm sorts packages by location).
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} optional platform entries added`);
