import { SelectField } from "#app/components/ui/field";
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
  return (
    <SelectField
      label="Start time"
      meta={meta}
      // Two lines reserved: the hint changes length when the free times arrive, and a
      // shifting form moves the fields below out from under a finger (or a test's click).
      hintClassName="mt-0.5 min-h-10 text-sm text-ink-soft"
      hint={
        <span aria-live="polite">
          {known
            ? free === 0
              ? `No free start times on ${date} for ${hours} hours. Please pick another date.`
              : `${free} free start ${free === 1 ? "time" : "times"} on ${date} for ${hours} hours; booked ones are marked.`
            : "Checking free times…"}
        </span>
      }
      options={[
        { value: "", label: "Select a time" },
        ...(known ? availability.times : []).map((option) => ({
          value: option.time,
          label: `${formatTime(option.time)}${option.reason ? ` (${REASON_TEXT[option.reason]})` : ""}`,
          disabled: !option.available,
        })),
      ]}
    />
  );
}
