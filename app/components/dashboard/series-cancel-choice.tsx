import { formatDollars } from "#app/domain/pricing";

/** Each choice's refund is posted with it, so the server refuses if it changed meanwhile. */
export function SeriesCancelChoice({
  oneRefund,
  following,
}: {
  oneRefund: number;
  following: { count: number; refund: number; dates: string[] };
}) {
  return (
    <fieldset className="mt-4 space-y-3 rounded-xl p-4 ring-1 ring-line">
      <legend className="px-1 font-semibold">This session is part of a series</legend>
      <input type="hidden" name="expectedFollowingRefund" value={following.refund} />
      <label className="flex items-start gap-3">
        <input type="radio" name="scope" value="one" defaultChecked className="mt-1" />
        <span>
          Only this session
          <span className="block text-sm text-ink-soft">
            {oneRefund > 0 ? `Refund ${formatDollars(oneRefund)}` : "No refund"}
          </span>
        </span>
      </label>
      <label className="flex items-start gap-3">
        <input type="radio" name="scope" value="following" className="mt-1" />
        <span>
          {`This and all later sessions (${following.count})`}
          <span className="block text-sm text-ink-soft">
            {following.dates.join(", ")} ·{" "}
            {following.refund > 0
              ? `refund ${formatDollars(following.refund)} in all`
              : "no refund"}
          </span>
        </span>
      </label>
    </fieldset>
  );
}
