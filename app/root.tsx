import {
  data,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { lazy, Suspense, useEffect, useState } from "react";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { ChatWidget } from "#app/components/chat/chat-widget";
import {
  CONNECTION_FAILED_STATUS,
  connectionFailureMiddleware,
  onConnectionFailure,
} from "#app/components/connection-failure";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { useNonce } from "#app/components/nonce";
import { PageScripts } from "#app/components/page-scripts";
import { SiteNav } from "#app/components/site-nav";
import { ShowToastContext, Toaster } from "#app/components/toaster";
import { chatUser } from "#app/workflows/chat-identity.server";
import { publicEnv } from "#app/env.server";
import { routeLogMiddleware } from "#app/web/request-log.server";
import { securityMiddleware } from "#app/web/security.server";
import { inlineToastContext } from "#app/web/request-context.server";
import { readToast } from "#app/web/toast.server";
import { getUser } from "#app/web/user-context.server";
import type { StoredForVisitors } from "#app/web/shared-pages.server";

export const middleware: Route.MiddlewareFunction[] = [routeLogMiddleware, securityMiddleware];

export const clientMiddleware: Route.ClientMiddlewareFunction[] = [connectionFailureMiddleware];

export const handle = { storedForVisitors: true } satisfies StoredForVisitors;

export async function loader({ request, context }: Route.LoaderArgs) {
  const [user, flash] = await Promise.all([getUser(request, context), readToast(request)]);
  const toast = context.get(inlineToastContext) ?? flash.toast;
  return data(
    { user, chatUser: chatUser(user), toast, env: publicEnv() },
    { headers: flash.headers },
  );
}

/**
 * Also after an action answering 4xx (skipped by default): the root loader carries the toast,
 * which would otherwise show one navigation late. A post that got no answer reloads nothing
 * (connection-failure.ts).
 */
export function shouldRevalidate({
  formMethod,
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (actionStatus === CONNECTION_FAILED_STATUS) return false;
  if (formMethod && formMethod.toUpperCase() !== "GET") return true;
  return defaultShouldRevalidate;
}

// A URL, not a side-effect import: the browser's entry and the root share one chunk
// (vite.config.ts), and a stylesheet of that chunk would be linked again by every lazy import.
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
];

/** A lazy island (decision 0094): the server's HTML serves until its chunk hydrates it. */
const SiteFooter = lazy(() =>
  import("#app/components/site-footer").then((module) => ({ default: module.SiteFooter })),
);

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

type Toast = NonNullable<NonNullable<ReturnType<typeof useRootData>>["toast"]>;

/** `pageToast` (the root loader cannot see it), `refreshWithoutScript` (decision 0090). */
function usePageSignals() {
  const data = useMatches().at(-1)?.loaderData as
    | { pageToast?: Toast; refreshWithoutScript?: string }
    | undefined;
  return { toast: data?.pageToast ?? null, refresh: data?.refreshWithoutScript ?? null };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRootData();
  const page = usePageSignals();
  const [shownByPage, showToast] = useState<Toast | null>(null);
  // The page's JavaScript arrives after its first paint (decision 0094): until this mark, the
  // page works as it does without JavaScript. The browser suite waits for it (tests/e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useEffect(() => onConnectionFailure(showToast), []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f0d17" />
        <Meta />
        {page.refresh ? (
          // Immediate, so no timed refresh (WCAG 2.2.1); the server paces the checks.
          <noscript>
            <meta httpEquiv="refresh" content={`0;url=${page.refresh}`} />
          </noscript>
        ) : null}
        <Links />
      </head>
      <body className="min-h-dvh bg-paper text-ink antialiased">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {rootData?.env.paymentsInTestMode ? (
          <p className="bg-gold-400 px-4 py-1.5 text-center text-sm font-semibold text-ink">
            Test mode: payments are simulated and no card is charged.
          </p>
        ) : null}
        <SiteNav user={rootData?.user ?? null} chatAppId={rootData?.env.intercomAppId ?? null} />
        <main id="main" tabIndex={-1} className="outline-none">
          <ShowToastContext.Provider value={showToast}>{children}</ShowToastContext.Provider>
        </main>
        <Suspense fallback={null}>
          <SiteFooter />
        </Suspense>
        <Toaster toast={rootData?.toast ?? page.toast} shownByPage={shownByPage} />
        <ChatWidget appId={rootData?.env.intercomAppId ?? null} user={rootData?.chatUser ?? null} />
        <ScrollRestoration nonce={nonce} />
        <PageScripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
