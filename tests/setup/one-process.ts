import { afterAll, vi } from "vitest";
import { z } from "zod";

const settingsBefore = { ...process.env };
// A worker runs its files one after another in one process (isolate: false), so the packages
// the app uses load once: each file leaves it as it found it, its settings, its database, its
// clock and the app's modules (and their schemas in zod's registry) gone.
afterAll(() => {
  const shared = globalThis as {
    __studioDb?: { $client: { close(): void } };
    __studioFileStorage?: unknown;
  };
  shared.__studioDb?.$client.close();
  delete shared.__studioDb;
  delete shared.__studioFileStorage;
  for (const name of Object.keys(process.env)) {
    if (!(name in settingsBefore)) delete process.env[name];
  }
  Object.assign(process.env, settingsBefore);
  z.globalRegistry.clear();
  vi.useRealTimers();
  vi.resetModules();
});
