import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { DatabaseBusyError } from "#app/db.server";
import { answeringDatabaseBusy } from "#app/web/database-busy.server";

const busy = () => {
  throw new DatabaseBusyError(
    Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }),
  );
};

function buildOf(module: Record<string, unknown>): ServerBuild {
  return { routes: { page: { id: "page", path: "page", module } } } as unknown as ServerBuild;
}

async function thrownBy(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("answeringDatabaseBusy", () => {
  it("answers a busy database in a loader or an action as the 503 with Retry-After", async () => {
    const build = answeringDatabaseBusy(
      buildOf({ loader: busy, action: busy, default: () => null }),
    );
    const { loader, action } = build.routes.page?.module ?? {};
    for (const handler of [loader, action]) {
      const answer = await thrownBy(() => handler?.({} as never));
      expect(answer).toBeInstanceOf(Response);
      const response = answer as Response;
      expect(response.status).toBe(503);
      expect(response.headers.get("Retry-After")).toBe("5");
      expect(await response.json()).toEqual({
        message: "The booking system is busy right now. Please try again in a moment.",
      });
    }
  });

  it("passes answers and every other error through, and keeps the module's other exports", async () => {
    const failure = new Error("a bug");
    const component = () => null;
    const build = answeringDatabaseBusy(
      buildOf({
        loader: () => ({ ok: true }),
        action: () => {
          throw failure;
        },
        default: component,
      }),
    );
    const module = build.routes.page?.module;
    expect(await module?.loader?.({} as never)).toEqual({ ok: true });
    expect(await thrownBy(() => module?.action?.({} as never))).toBe(failure);
    expect(module?.default).toBe(component);
  });
});
