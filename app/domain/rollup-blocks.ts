/**
 * The sales rollup's aligned UTC blocks of 1, 16, 256, 4,096 and 65,536 hours (migration 0005):
 * any span of whole hours is tiled by a few runs of them, so a period's totals read a few dozen
 * rows however many payments it holds.
 */
export const HOUR_MS = 60 * 60 * 1000;
export const BLOCK_FACTOR = 16;
export const BLOCK_LEVELS = 5;
/** The migration's triggers use the same figures. */
export const BLOCK_MS = Array.from(
  { length: BLOCK_LEVELS },
  (_, level) => HOUR_MS * BLOCK_FACTOR ** level,
);

export type BlockRun = { level: number; from: number; to: number };

/** Also below 1970. */
export function floorTo(value: number, size: number): number {
  return value - (((value % size) + size) % size);
}

/** Both bounds must be whole UTC hours (every studio midnight is). */
export function blockRuns(start: number, end: number): BlockRun[] {
  if (start % HOUR_MS !== 0 || end % HOUR_MS !== 0) {
    throw new RangeError("Sales rollup spans start and end on whole UTC hours");
  }
  const runs: BlockRun[] = [];
  let low = start;
  let high = end;
  for (let level = 0; level < BLOCK_LEVELS && low < high; level += 1) {
    const next = BLOCK_MS[level + 1];
    if (next === undefined) {
      runs.push({ level, from: low, to: high });
      break;
    }
    // Blocks of this level up to the next level's boundary on each side.
    const lowFloor = floorTo(low, next);
    const lowEdge = Math.min(high, lowFloor === low ? low : lowFloor + next);
    if (lowEdge > low) runs.push({ level, from: low, to: lowEdge });
    const highEdge = Math.max(lowEdge, floorTo(high, next));
    if (high > highEdge) runs.push({ level, from: highEdge, to: high });
    // Both edges are now multiples of `next` (or the span is used up).
    low = lowEdge;
    high = highEdge;
  }
  return runs;
}
