import { describe, expect, it } from "vitest";
import { startInTurn } from "./request-turns.server";

function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // The CPU a request's loaders and render hold.
  }
}

describe("startInTurn", () => {
  it("starts requests in the order they arrived", async () => {
    const started: number[] = [];
    const all = Promise.all(
      [1, 2, 3, 4].map(
        (n) =>
          new Promise<void>((resolve) =>
            startInTurn(() => {
              started.push(n);
              resolve();
            }),
          ),
      ),
    );
    expect(started).toEqual([]);
    await all;
    expect(started).toEqual([1, 2, 3, 4]);
  });

  it("lets the event loop read a socket between two requests of a crowd", async () => {
    const events: string[] = [];
    const crowd = Array.from(
      { length: 6 },
      (_, n) =>
        new Promise<void>((resolve) =>
          startInTurn(() => {
            events.push(`request ${n}`);
            busy(5);
            resolve();
          }),
        ),
    );
    // A timer is read in the next turn, as a probe's socket is: it comes before the crowd's end
    // (before its first request too, when the loop's first turn finds the timer already due).
    const probe = new Promise<void>((resolve) =>
      setTimeout(() => {
        events.push("probe");
        resolve();
      }),
    );
    await Promise.all([...crowd, probe]);
    expect(events.indexOf("probe")).toBeLessThan(3);
  });

  it("goes on after a request that throws", async () => {
    const started: string[] = [];
    const done = new Promise<void>((resolve) => {
      startInTurn(() => {
        started.push("first");
        throw new Error("a bug in one request");
      });
      startInTurn(() => {
        started.push("second");
        resolve();
      });
    });
    const uncaught = new Promise<unknown>((resolve) => process.once("uncaughtException", resolve));
    await done;
    expect(started).toEqual(["first", "second"]);
    expect(await uncaught).toBeInstanceOf(Error);
  });
});
