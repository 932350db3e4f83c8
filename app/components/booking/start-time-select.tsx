import { getSelectProps } from "@conform-to/react";
import { ErrorList } from "#app/components/ui/error-list";
import type { Availability } from "#app/components/booking/types";

const REASON_TEXT = {
  taken: "booked",
  "too-soon": "within 48 hours",
  skipped: "clocks change",
  current: "your current time",
};

export function formatTime(time: string): string {
  const hour = Number(time.slice(0, 2));
  return `${hour % 12 === 0 ? 12 : hour % 12}:00 ${hour < 12 ? "AM" : "PM"}`;
}

export function StartTimeSelect({
  meta,
  availability,
  date,
  hours,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: conform field metadata of the form schema.
  meta: any;
  availability: Availability;
  date: string;
  hours: number;
}) {
  const known = availability.times.length > 0;
  const free = availability.times.filter((option) => option.available).length;
  const hintId = `${meta.id}-hint`;
  return (
    <div>
      <label htmlFor={meta.id} className="field-label">
        Start time
      </label>
      {/* Two lines reserved: the hint changes length when the free times arrive, and a
          shifting form moves the fields below out from under a finger (or a test's click). */}
      <p id={hintId} className="mt-0.5 min-h-10 text-sm text-ink-soft" aria-live="polite">
        {known
          ? free === 0
            ? `No free start times on ${date} for ${hours} hours. Please pick another date.`
            : `${free} free start ${free === 1 ? "time" : "times"} on ${date} for ${hours} hours; booked ones are marked.`
          : "Checking free times…"}
      </p>
      <select
        {...getSelectProps(meta, { ariaDescribedBy: hintId })}
        key={meta.key}
        className="field-input"
      >
        <option value="">Select a time</option>
        {(known ? availability.times : []).map((option) => (
          <option key={option.time} value={option.time} disabled={!option.available}>
            {formatTime(option.time)}
            {option.reason ? ` (${REASON_TEXT[option.reason]})` : ""}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
