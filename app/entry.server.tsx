import { Writable } from "node:stream";
import { type RenderToPipeableStreamOptions, renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { NonceProvider } from "#app/components/nonce";
import { logError } from "#app/log.server";
import { jsonError } from "#app/web/api.server";
import { hashMarkedScripts, newScriptMark } from "#app/web/inline-scripts.server";
import { scriptHashesContext } from "#app/web/request-context.server";
import { storablePageContext, storableRoute } from "#app/web/shared-pages.server";

export const streamTimeout = 5_000;

/**
 * Every loader has answered before rendering starts, so streaming would save nothing: one buffer
 * is compressed and written in one go, not React's hundreds of small chunks.
 */
function wholeDocument(done: (html: Buffer<ArrayBuffer>) => void): Writable {
  const chunks: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
    final(callback) {
      done(Buffer.concat(chunks) as Buffer<ArrayBuffer>);
      callback();
    },
  });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // Only the catch-all renders a page under /api/: an unknown call, whatever its method, is
  // answered as the API answers (docs/product.md "The JSON API").
  if (new URL(request.url).pathname.startsWith("/api/")) {
    return jsonError(
      404,
      "There is no API call at this address: see /api/openapi.json for the calls there are.",
    );
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const storable = storableRoute(request, routerContext);
  const nonce = newScriptMark();

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    // Whole before it is sent: the lazy booking form's HTML must be complete without JavaScript.
    const readyOption: keyof RenderToPipeableStreamOptions = "onAllReady";
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);

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
          pipe(
            wholeDocument((rendered) => {
              clearTimeout(timeoutId);
              const page = hashMarkedScripts(rendered, nonce);
              loadContext.set(scriptHashesContext, page.hashes);
              if (!failed) loadContext.set(storablePageContext, storable);
              resolve(
                new Response(page.html, { headers: responseHeaders, status: responseStatusCode }),
              );
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

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // React Router's own 4xx answers (a POST to a page without an action) are the client's
  // mistake: logging them would let anyone fill the log with errors.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // The request's line (same reqId) names its route; the URL may hold ids and a query.
  logError(`${request.method} request failed`, error);
}
