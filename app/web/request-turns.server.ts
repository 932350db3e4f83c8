/**
 * App requests start one per turn of the event loop, in arrival order: started at once, a crowd's
 * loaders hold the loop and Fly's probe waits behind them all (docs/benchmarks.md, issue 28).
 */
const waiting: (() => void)[] = [];

function startNext(): void {
  const start = waiting.shift();
  if (waiting.length > 0) setImmediate(startNext);
  start?.();
}

export function startInTurn(start: () => void): void {
  if (waiting.push(start) === 1) setImmediate(startNext);
}
