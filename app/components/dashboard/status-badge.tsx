import type { StatusTone } from "#app/domain/session-list";

/** Every pair is well above 4.5:1. */
const TONES: Record<StatusTone, string> = {
  green: "bg-emerald-100 text-emerald-900 ring-emerald-700/20",
  yellow: "bg-amber-100 text-amber-900 ring-amber-700/25",
  blue: "bg-sky-100 text-sky-900 ring-sky-700/20",
  red: "bg-red-100 text-red-900 ring-red-700/20",
  grey: "bg-stone-100 text-stone-800 ring-stone-600/20",
  purple: "bg-violet-100 text-violet-900 ring-violet-700/20",
};

/** docs/product.md "Client dashboard"; the label carries the meaning. */
export function StatusBadge({ tone, label }: { tone: StatusTone; label: string }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ${TONES[tone]}`}
    >
      {label}
    </span>
  );
}
