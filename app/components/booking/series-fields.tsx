import type { FieldMetadata } from "@conform-to/react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { formatTime } from "#app/components/booking/start-time-select";
import { ErrorList } from "#app/components/ui/error-list";
import { Choice, Fieldset, SelectField } from "#app/components/ui/field";
import type { SeriesPreview } from "#app/domain/series-preview";
import { SERIES_MAX_COUNT, SERIES_MIN_COUNT } from "#app/domain/series-repeat";

/**
 * docs/product.md "Weekly series". Without JavaScript "Check dates" posts the form and the reply
 * shows the list; with it, the same list follows the fields.
 */
// biome-ignore lint/suspicious/noExplicitAny: conform field metadata of the form schema.
type Meta = FieldMetadata<any, any, string[]>;

const COUNTS = Array.from(
  { length: SERIES_MAX_COUNT - SERIES_MIN_COUNT + 1 },
  (_, i) => SERIES_MIN_COUNT + i,
);

const PROBLEM_TEXT = {
  taken: "Taken",
  "too-soon": "Within 48 hours",
  skipped: "The clocks skip this hour",
  "too-far": "Too far ahead to book yet",
} as const;

/** The same on the server and in the browser. */
function formatDay(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
}

export function SeriesFields({
  repeat,
  date,
  time,
  hours,
  initial,
}: {
  repeat: { every: Meta; count: Meta; skip: Meta };
  date: string;
  time: string;
  hours: number;
  initial: SeriesPreview | null;
}) {
  const every = String(repeat.every.value ?? "none");
  const count = Number(repeat.count.value) || 0;
  const preview = useSeriesPreview({ date, time, hours, every, count }, initial);
  const repeats = every === "week" || every === "2weeks";
  return (
    <Fieldset legend="Repeat" className="mt-8">
      <p className="mt-1 text-sm text-ink-soft">
        Book the same time every week or every 2 weeks: every session is booked together, or none.
      </p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Repeat"
          meta={repeat.every}
          options={[
            { value: "none", label: "No repeat" },
            { value: "week", label: "Every week" },
            { value: "2weeks", label: "Every 2 weeks" },
          ]}
        />
        <SelectField
          label="How many sessions"
          meta={repeat.count}
          options={COUNTS.map((option) => ({ value: String(option), label: `${option} sessions` }))}
        />
      </div>
      <noscript>
        <button
          type="submit"
          name="intent"
          value="check-dates"
          formNoValidate
          className="btn-secondary mt-4 text-ink"
        >
          Check dates
        </button>
      </noscript>
      <div aria-live="polite">
        {repeats && preview ? (
          <SeriesPreviewList preview={preview} skip={repeat.skip} />
        ) : repeats ? (
          <p className="mt-4 text-sm text-ink-soft">
            Choose a date and a start time to see every session of the series.
          </p>
        ) : null}
      </div>
      <ErrorList id={repeat.skip.errorId} errors={repeat.skip.errors} />
    </Fieldset>
  );
}

function SeriesPreviewList({ preview, skip }: { preview: SeriesPreview; skip: Meta }) {
  const unavailable = preview.occurrences.filter((occurrence) => occurrence.problem !== null);
  return (
    <div className="mt-4 rounded-xl bg-paper p-4 ring-1 ring-line">
      <h4 className="font-semibold">Your {preview.occurrences.length} sessions</h4>
      <p className="mt-1 text-sm text-ink-soft">
        {unavailable.length === 0
          ? `Every session is free at ${formatTime(preview.time)}.`
          : `${unavailable.length} of them cannot be booked at ${formatTime(preview.time)}: leave those dates out, or choose another time.`}
      </p>
      <ul className="mt-3 grid gap-2" data-testid="series-preview">
        {preview.occurrences.map((occurrence) => (
          <li
            key={occurrence.recordingDate}
            data-date={occurrence.recordingDate}
            className="rounded-lg bg-white p-3 ring-1 ring-line"
          >
            <span className="font-semibold">{formatDay(occurrence.recordingDate)}</span>
            {occurrence.problem === null ? (
              <span className="ml-2 text-sm">Free</span>
            ) : (
              <>
                <span className="ml-2 text-sm font-semibold text-red-800">
                  {PROBLEM_TEXT[occurrence.problem]}
                </span>
                <span className="block text-sm">
                  {occurrence.alternatives.length > 0
                    ? `Nearest free times that day: ${occurrence.alternatives.map(formatTime).join(", ")}`
                    : "No other start time is free that day."}
                </span>
                <Choice
                  meta={skip}
                  type="checkbox"
                  value={occurrence.recordingDate}
                  label={`Leave out ${formatDay(occurrence.recordingDate)}`}
                  className="mt-1 flex items-center gap-2 text-sm"
                  inputClassName="size-5 accent-brand-600"
                />
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

type Query = { date: string; time: string; hours: number; every: string; count: number };

const sameQuery = (preview: SeriesPreview, query: Query) =>
  preview.date === query.date &&
  preview.time === query.time &&
  preview.hours === query.hours &&
  preview.every === query.every &&
  preview.count === query.count;

function useSeriesPreview(query: Query, initial: SeriesPreview | null): SeriesPreview | null {
  const fetcher = useFetcher<SeriesPreview>();
  const { load } = fetcher;
  const matchesInitial = initial !== null && sameQuery(initial, query);
  const complete =
    (query.every === "week" || query.every === "2weeks") &&
    /^\d{4}-\d{2}-\d{2}$/.test(query.date) &&
    /^\d{2}:00$/.test(query.time) &&
    query.count >= SERIES_MIN_COUNT &&
    query.count <= SERIES_MAX_COUNT;
  const { date, time, hours, every, count } = query;
  useEffect(() => {
    if (matchesInitial || !complete) return;
    const params = new URLSearchParams({
      date,
      time,
      hours: String(hours),
      every,
      count: String(count),
    });
    load(`/api/availability/series?${params}`);
  }, [date, time, hours, every, count, matchesInitial, complete, load]);
  if (matchesInitial) return initial;
  const fresh = fetcher.data;
  return fresh && sameQuery(fresh, query) ? fresh : null;
}
