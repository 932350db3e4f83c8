import * as Headless from "@headlessui/react";
import { Form } from "react-router";
import { IntentButton } from "#app/components/ui/intent-button";

export type CalendarFeedUrls = { https: string; webcal: string } | null;

/** docs/product.md "Calendar feeds". New link is a plain post: it works without JavaScript. */
export function CalendarFeedLink({
  id,
  title,
  description,
  urls,
  action,
  intent,
}: {
  id: string;
  title: string;
  description: string;
  urls: CalendarFeedUrls;
  action: string;
  intent: string;
}) {
  return (
    <section aria-labelledby={`${id}-title`} data-slot="calendar-feed" className="space-y-4">
      <h3 id={`${id}-title`} className="font-display text-xl font-bold">
        {title}
      </h3>
      <p className="text-sm text-ink-soft">{description}</p>
      {urls ? <FeedLink urls={urls} /> : null}
      <Form method="post" action={action} preventScrollReset className="space-y-2">
        {urls ? (
          <p className="text-sm text-ink-soft">
            A new link stops the old one at once: calendars subscribed with it stop updating.
          </p>
        ) : null}
        <IntentButton
          intent={intent}
          label={urls ? "New link" : "Make my link"}
          busyLabel="Making a new link…"
          className={urls ? "btn-secondary" : "btn-primary"}
        />
      </Form>
    </section>
  );
}

function FeedLink({ urls }: { urls: NonNullable<CalendarFeedUrls> }) {
  return (
    <>
      <Headless.Field>
        <Headless.Label className="block text-sm font-semibold">
          Calendar link (keep it private: anyone with it can see these sessions)
        </Headless.Label>
        <Headless.Input
          type="text"
          readOnly
          value={urls.https}
          spellCheck={false}
          className="mt-1 w-full rounded border border-line bg-surface px-3 py-2 font-mono text-sm"
        />
      </Headless.Field>
      <a href={urls.webcal} className="btn-primary inline-block">
        Subscribe in your calendar app
      </a>
    </>
  );
}
