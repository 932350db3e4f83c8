import { scaleBand, scaleLinear } from "d3-scale";
import { formatDollars } from "#app/domain/pricing";

export type RevenueBar = { label: string; longLabel: string; total: number };

const WIDTH = 640;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 64 };
/** So they never overlap; the figures table has every bar. */
const MAX_LABELS = 12;
const UNIT_WORDS = { day: "day", week: "week", month: "month", year: "year" } as const;

/**
 * Drawn on the server as SVG: no chart library in the browser. Named by a written summary (React
 * hoists a <title> to the head, so none is used inside), every figure in a table under it.
 */
export function RevenueChart({
  bars,
  unit,
  periodLabel,
}: {
  bars: RevenueBar[];
  unit: keyof typeof UNIT_WORDS;
  periodLabel: string;
}) {
  const totals = bars.map((bar) => bar.total);
  const low = Math.min(0, ...totals);
  const high = Math.max(0, ...totals);
  const y = scaleLinear()
    .domain([low, high === low ? low + 1 : high])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const x = scaleBand<number>()
    .domain(bars.map((_, index) => index))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const labelEvery = Math.ceil(bars.length / MAX_LABELS);
  const best = bars.reduce<RevenueBar | undefined>(
    (top, bar) => (top === undefined || bar.total > top.total ? bar : top),
    undefined,
  );
  const sum = totals.reduce((a, b) => a + b, 0);
  const summary = `${bars.length} ${UNIT_WORDS[unit]}${bars.length === 1 ? "" : "s"}, ${formatDollars(sum)} in all${
    best ? `; highest ${best.longLabel} at ${formatDollars(best.total)}` : ""
  }.`;
  const zero = y(0);
  return (
    <figure className="mt-6">
      <figcaption className="font-semibold">Revenue by {UNIT_WORDS[unit]}</figcaption>
      <p id="revenue-chart-summary" className="text-sm text-ink-soft">
        {summary}
      </p>
      <svg
        role="img"
        aria-label={`Revenue by ${UNIT_WORDS[unit]}, ${periodLabel}`}
        aria-describedby="revenue-chart-summary"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-2 h-auto w-full"
      >
        {y.ticks(4).map((tick) => (
          <g key={tick} transform={`translate(0 ${y(tick)})`}>
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} className="stroke-line" />
            <text
              x={MARGIN.left - 6}
              dy="0.32em"
              textAnchor="end"
              className="fill-ink-soft text-[11px]"
            >
              {formatDollars(tick).replace(/\.00$/, "")}
            </text>
          </g>
        ))}
        {bars.map((bar, index) => {
          const top = y(Math.max(0, bar.total));
          const height = Math.abs(y(bar.total) - zero);
          return (
            <g key={bar.longLabel}>
              <rect
                x={x(index)}
                y={top}
                width={x.bandwidth()}
                height={Math.max(height, bar.total === 0 ? 0 : 1)}
                className={bar.total < 0 ? "fill-red-700" : "fill-brand-600"}
              />
              {index % labelEvery === 0 ? (
                <text
                  x={(x(index) ?? 0) + x.bandwidth() / 2}
                  y={HEIGHT - MARGIN.bottom + 16}
                  textAnchor="middle"
                  className="fill-ink-soft text-[11px]"
                >
                  {bar.label}
                </text>
              ) : null}
            </g>
          );
        })}
        <line
          x1={MARGIN.left}
          x2={WIDTH - MARGIN.right}
          y1={zero}
          y2={zero}
          className="stroke-ink-soft"
        />
      </svg>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-semibold text-ink-soft">Chart figures</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take keyboard focus. */}
        <section className="mt-2 max-h-72 overflow-auto" aria-label="Chart figures" tabIndex={0}>
          <table className="w-full text-left">
            <caption className="sr-only">
              Revenue by {UNIT_WORDS[unit]}, {periodLabel}
            </caption>
            <thead>
              <tr className="border-b border-line text-ink-soft">
                <th scope="col" className="py-1 pr-3 font-semibold">
                  {UNIT_WORDS[unit][0]?.toUpperCase()}
                  {UNIT_WORDS[unit].slice(1)}
                </th>
                <th scope="col" className="py-1 text-right font-semibold">
                  Revenue
                </th>
              </tr>
            </thead>
            <tbody>
              {bars.map((bar) => (
                <tr key={bar.longLabel} className="border-b border-line last:border-b-0">
                  <td className="py-1 pr-3">{bar.longLabel}</td>
                  <td className="py-1 text-right tabular-nums">{formatDollars(bar.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
    </figure>
  );
}
