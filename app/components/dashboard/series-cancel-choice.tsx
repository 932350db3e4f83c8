import * as Headless from "@headlessui/react";
import { formatDollars } from "#app/domain/pricing";
import { Fieldset } from "#app/components/ui/field";

/** Each choice's refund is posted with it, so the server refuses if it changed meanwhile. */
export function SeriesCancelChoice({
  oneRefund,
  following,
}: {
  oneRefund: number;
  following: { count: number; refund: number; dates: string[] };
}) {
  return (
    <Fieldset
      legend="This session is part of a series"
      legendClassName="px-1 font-semibold"
      className="mt-4 space-y-3 rounded-xl p-4 ring-1 ring-line"
    >
      <input type="hidden" name="expectedFollowingRefund" value={following.refund} />
      <Headless.Field className="flex items-start gap-3">
        <Headless.Input type="radio" name="scope" value="one" defaultChecked className="mt-1" />
        <Headless.Label>
          Only this session
          <span className="block text-sm text-ink-soft">
            {oneRefund > 0 ? `Refund ${formatDollars(oneRefund)}` : "No refund"}
          </span>
        </Headless.Label>
      </Headless.Field>
      <Headless.Field className="flex items-start gap-3">
        <Headless.Input type="radio" name="scope" value="following" className="mt-1" />
        <Headless.Label>
          {`This and all later sessions (${following.count})`}
          <span className="block text-sm text-ink-soft">
            {following.dates.join(", ")} ·{" "}
            {following.refund > 0
              ? `refund ${formatDollars(following.refund)} in all`
              : "no refund"}
          </span>
        </Headless.Label>
      </Headless.Field>
    </Fieldset>
  );
}
