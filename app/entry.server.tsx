import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { type RenderToPipeableStreamOptions, renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { NonceProvider } from "#app/components/nonce";
import { logError } from "#app/log.server";
import { nonceContext } from "#app/web/request-context.server";
import { keepPageAsRendered, keptPage, sharedPageKey } from "#app/web/shared-pages.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // Every inline script React Router writes carries this response's nonce (see the CSP).
  const nonce = loadContext.get(nonceContext);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // A page every visitor shares is rendered once (app/web/shared-pages.server.ts).
  const sharedKey = nonce ? sharedPageKey(request, routerContext) : null;
  const kept = sharedKey ? keptPage(sharedKey, nonce) : undefined;
  if (kept !== undefined) {
    return new Response(kept, { headers: responseHeaders, status: responseStatusCode });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    // The whole document is rendered before it is sent: loaders stream nothing, and the
    // booking form is a lazy island (components/booking) whose HTML must be complete for
    // browsers without JavaScript, never a fallback waiting for a streamed script.
    const readyOption: keyof RenderToPipeableStreamOptions = "onAllReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // React outlines big Suspense boundaries (the booking form) behind a script that swaps
        // them in; without JavaScript they would stay hidden. Inline every boundary instead.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const body = sharedKey
            ? keepPageAsRendered(sharedKey, nonce, () => !failed)
            : new PassThrough();
          body.once("finish", () => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          if (shellRendered) logError("render", error);
        },
      },
    );
  });
}

/** Server errors are logged without stack or SQL; the client only ever sees a generic page. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // React Router's own 4xx answers (a POST to a page without an action) are the client's
  // mistake: logging them would let anyone fill the log with errors.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // The request's line (same reqId) names its route; the URL may hold ids and a query.
  logError(`${request.method} request failed`, error);
}
