import { describe, expect, it } from "vitest";
import { appForThisFile } from "#tests/setup/app-in-process";

const server = appForThisFile();

/** Everything but the body: status and every header. */
async function described(response: Response) {
  return {
    status: response.status,
    headers: [...response.headers].sort(([a], [b]) => a.localeCompare(b)),
    body: await response.text(),
  };
}

describe("the liveness probe outside the router", () => {
  it("answers GET and HEAD /healthz exactly as React Router's route does", async () => {
    const { livenessProbeAnswer } = await import("#app/web/liveness.server");
    const requests = [
      { method: "GET" },
      { method: "HEAD" },
      // A browser that is signed in keeps the answer out of shared caches, routed or not.
      { method: "GET", headers: { Cookie: "__session=anything" } },
      { method: "GET", path: "/healthz?from=fly" },
    ];
    for (const { method, headers, path = "/healthz" } of requests) {
      const request = () => new Request(`${server.url}${path}`, { method, headers });
      const routed = await described(await server.answer(request()));
      expect(routed.status, `${method} ${path}`).toBe(200);
      expect(routed.headers.length, `${method} ${path}`).toBeGreaterThan(5);
      expect(await described(await livenessProbeAnswer(request())), `${method} ${path}`).toEqual(
        routed,
      );
    }
  });
});
