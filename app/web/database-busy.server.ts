import type { ServerBuild } from "react-router";
import { DatabaseBusyError } from "#app/db.server";

const DATABASE_BUSY_MESSAGE = "The booking system is busy right now. Please try again in a moment.";
const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * The answer to a write that met the lock past busy_timeout (docs/product.md "Messages"): the
 * JSON `{ message }` of every API refusal, and for a page its error boundary, never a 500.
 */
export function databaseBusyResponse(): Response {
  return Response.json(
    { message: DATABASE_BUSY_MESSAGE },
    { status: 503, headers: { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) } },
  );
}

type Handler = (args: never) => unknown;

function answeringBusy<H extends Handler>(handler: H): H {
  return (async (args: never) => {
    try {
      return await handler(args);
    } catch (error) {
      if (error instanceof DatabaseBusyError) throw databaseBusyResponse();
      throw error;
    }
  }) as H;
}

/**
 * The build with every route's loader and action answering a DatabaseBusyError as the 503
 * above: the one place it is answered, so a handler catches it only to answer otherwise (a
 * form that keeps what was typed).
 */
export function answeringDatabaseBusy(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const { loader, action } = route.module;
    routes[id] = {
      ...route,
      module: {
        ...route.module,
        ...(loader ? { loader: answeringBusy(loader) } : {}),
        ...(action ? { action: answeringBusy(action) } : {}),
      },
    };
  }
  return { ...build, routes };
}
