import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BLOCK_MS, blockRuns, floorTo, HOUR_MS } from "#app/domain/rollup-blocks";

/** Every block start a run covers, with its length: the tiling to check. */
function blocksOf(start: number, end: number) {
  return blockRuns(start, end).flatMap((run) => {
    const size = BLOCK_MS[run.level] as number;
    const starts: [number, number][] = [];
    for (let at = run.from; at < run.to; at += size) starts.push([at, size]);
    return starts;
  });
}

describe("sales rollup blocks", () => {
  it("floors below 1970 too", () => {
    expect(floorTo(-1, HOUR_MS)).toBe(-HOUR_MS);
    expect(floorTo(-HOUR_MS, HOUR_MS)).toBe(-HOUR_MS);
    expect(floorTo(HOUR_MS + 1, HOUR_MS)).toBe(HOUR_MS);
  });

  it("tile any span of whole hours exactly, with aligned blocks and few runs", () => {
    const hours = fc.integer({ min: -2_000_000, max: 2_000_000 });
    fc.assert(
      fc.property(hours, hours, (a, b) => {
        const [start, end] = [Math.min(a, b) * HOUR_MS, Math.max(a, b) * HOUR_MS];
        const runs = blockRuns(start, end);
        expect(runs.length).toBeLessThanOrEqual(2 * BLOCK_MS.length);
        let at = start;
        const blocks = blocksOf(start, end).sort((x, y) => x[0] - y[0]);
        for (const [blockStart, size] of blocks) {
          expect(blockStart).toBe(at);
          expect(floorTo(blockStart, size)).toBe(blockStart);
          at += size;
        }
        expect(at).toBe(end);
      }),
    );
  });

  it("uses large blocks inside a long span", () => {
    const start = Date.UTC(2000, 0, 1, 5);
    const end = Date.UTC(2026, 0, 1, 5);
    expect(blocksOf(start, end).length).toBeLessThan(200);
    expect(blockRuns(start, end).some((run) => run.level === 4)).toBe(true);
  });

  it("is empty for an empty span and refuses bounds that are not whole hours", () => {
    expect(blockRuns(HOUR_MS, HOUR_MS)).toEqual([]);
    expect(() => blockRuns(1, HOUR_MS)).toThrow(RangeError);
  });
});
