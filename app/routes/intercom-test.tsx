import { useSyncExternalStore } from "react";
import { Link } from "react-router";
import { SUPPORT_FORM_URL } from "#app/components/chat/support-form-url";
import { useHydrated } from "#app/components/ui/use-hydrated";
import {
  type MessengerStatus,
  messengerStatus,
  restartMessenger,
  serverMessengerStatus,
  showMessenger,
  subscribeMessenger,
} from "#app/components/chat/messenger";
import { getUser } from "#app/web/user-context.server";
import { publicEnv } from "#app/env.server";
import { chatUser } from "#app/workflows/chat-identity.server";
import type { Route } from "./+types/intercom-test";

/**
 * /intercom-test (docs/product.md "Screens"): a diagnostic page for everyone showing whether the
 * chat widget is loaded, its app id and the login state, with buttons to open the messenger and to
 * start it again. Public on purpose: the app id is sent to every browser that runs the chat.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  return {
    appId: publicEnv().intercomAppId,
    signedInAs: user?.username ?? null,
    chatUser: chatUser(user),
  };
}

const STATUS_TEXT: Record<MessengerStatus, string> = {
  idle: "Not loaded",
  loading: "Loading…",
  ready: "Loaded",
  failed: "Failed to load (blocked or offline)",
};

export default function IntercomTest({ loaderData }: Route.ComponentProps) {
  const { appId, signedInAs, chatUser: user } = loaderData;
  const status = useSyncExternalStore(subscribeMessenger, messengerStatus, serverMessengerStatus);
  const hydrated = useHydrated();
  // A widget that failed to load (blocked, offline) has nothing to show or restart.
  const usable = Boolean(appId) && hydrated && status !== "failed";

  return (
    <section aria-labelledby="intercom-test-title" className="mx-auto max-w-2xl px-5 py-16 sm:px-8">
      <p className="eyebrow">Diagnostics</p>
      <h1 id="intercom-test-title" className="mt-2 font-display text-3xl font-bold">
        Chat widget test
      </h1>
      <p className="mt-3 text-ink-soft">The state of the customer-support chat in this browser.</p>

      <dl className="card mt-8 divide-y divide-line">
        <Row label="Widget" testId="chat-status">
          {appId ? STATUS_TEXT[status] : "Not loaded (not configured)"}
        </Row>
        <Row label="App ID" testId="chat-app-id">
          {appId ? <code className="font-mono">{appId}</code> : "not configured"}
        </Row>
        <Row label="Login state" testId="chat-login-state">
          {signedInAs ? `Signed in as ${signedInAs}` : "Signed out"}
        </Row>
      </dl>

      <div className="mt-8 flex flex-wrap gap-3">
        <button
          type="button"
          className="btn-primary"
          disabled={!usable}
          aria-describedby="chat-actions-note"
          onClick={() => showMessenger()}
        >
          Show Messenger
        </button>
        <button
          type="button"
          className="btn-secondary text-ink"
          disabled={!usable}
          aria-describedby="chat-actions-note"
          onClick={() => {
            if (appId) void restartMessenger(appId, user);
          }}
        >
          Reinitialize
        </button>
      </div>
      <div id="chat-actions-note" className="mt-4 text-ink-soft">
        {appId ? (
          <noscript>
            <p>
              The chat needs JavaScript. Turn it on to use these buttons, or{" "}
              <Link to={SUPPORT_FORM_URL} className="font-semibold text-brand-700 underline">
                send us a support request
              </Link>
              .
            </p>
          </noscript>
        ) : (
          <p>
            The chat is not configured on this site, so these buttons are off. You can{" "}
            <Link to={SUPPORT_FORM_URL} className="font-semibold text-brand-700 underline">
              send us a support request
            </Link>{" "}
            instead.
          </p>
        )}
      </div>
    </section>
  );
}

function Row({
  label,
  testId,
  children,
}: {
  label: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap justify-between gap-4 px-5 py-4">
      <dt className="font-semibold">{label}</dt>
      <dd data-testid={testId} className="text-right break-all">
        {children}
      </dd>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Chat widget test | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
