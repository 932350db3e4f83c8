import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { bookingPayload, cardBody } from "#tests/setup/payloads";
import {
  cookiesFrom,
  freePort,
  registrationPayload,
  startServer,
  type TestServer,
} from "#tests/setup/server";

/**
 * The metrics (docs/deploy.md "Logs and metrics"): Prometheus text on METRICS_PORT, never on
 * the public port.
 */
let server: TestServer;
let metricsUrl: string;
beforeAll(async () => {
  const port = await freePort();
  // METRICS_HOST left at its default: loopback.
  server = await startServer({ METRICS_PORT: String(port) });
  metricsUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.stop();
});

async function scrape(): Promise<string> {
  const response = await fetch(`${metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toContain("text/plain");
  return response.text();
}

/** The value of one sample line ("name{labels} value"), 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

function post(path: string, body: unknown, cookie?: string) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
}

describe("the public port", () => {
  it.each(["/metrics", "/metrics?x=1"])(
    "answers 404 for %s, with no metric in it",
    async (path) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toMatch(/http_request_duration_seconds|process_cpu/);
    },
  );
});

/** This machine's first address that is not loopback (a container's eth0). */
function outsideAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && !entry.internal && entry.family === "IPv4")?.address;
  if (!address) throw new Error("This test needs a network address besides loopback");
  return address;
}

describe("the metrics port", () => {
  it("listens on loopback only by default: another interface of the machine gets no answer", async () => {
    const port = new URL(metricsUrl).port;
    const refused = await fetch(`http://${outsideAddress()}:${port}/metrics`).then(
      (response) => response.status,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(refused).toBe("ECONNREFUSED");
    expect((await fetch(`${metricsUrl}/metrics`)).status).toBe(200);
  });

  it("answers only GET /metrics", async () => {
    expect((await fetch(`${metricsUrl}/`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/healthz`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("counts a booking, its payment and its cancellation, and the outbox they fill", async () => {
    const before = await scrape();
    const registration = await post("/api/register", registrationPayload());
    expect(registration.status).toBe(201);
    const cookie = cookiesFrom(registration);
    const date = addStudioDays(studioDateOf(Date.now()), 6);
    const booked = await post("/api/bookings", bookingPayload(date, "10:00", 2), cookie);
    expect(booked.status).toBe(201);
    const booking = (await booked.json()) as { id: number; totalCost: number };
    const paid = await post(
      `/api/bookings/${booking.id}/payments/direct`,
      cardBody(booking.totalCost),
      cookie,
    );
    expect(paid.status).toBe(200);
    const cancelled = await post(`/api/bookings/${booking.id}/cancel`, {}, cookie);
    expect(cancelled.status).toBe(200);

    const after = await scrape();
    for (const name of ["studio_bookings_created_total", "studio_bookings_paid_total"]) {
      expect(sample(after, name) - sample(before, name), name).toBe(1);
    }
    const series = 'studio_bookings_cancelled_total{by="customer"}';
    expect(sample(after, series) - sample(before, series)).toBe(1);
    // No SMTP here: the booking's and the payment's e-mails wait in the outbox.
    expect(sample(after, "studio_outbox_pending")).toBeGreaterThanOrEqual(2);
    expect(sample(after, "studio_outbox_oldest_pending_age_seconds")).toBeGreaterThan(0);
  });

  it("has a latency histogram by route pattern, method and status", async () => {
    for (const path of ["/", "/api/services", "/no/such/page"]) {
      await (await fetch(`${server.url}${path}`)).text();
    }
    // A request is measured once its answer is out: the scrape may come a moment earlier.
    let text = await scrape();
    for (let tries = 0; !text.includes('route="/*"') && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      text = await scrape();
    }
    for (const labels of [
      'method="GET",route="/",status="200"',
      'method="GET",route="/api/services",status="200"',
      'method="GET",route="/*",status="404"',
    ]) {
      expect(text).toMatch(
        new RegExp(
          `^http_request_duration_seconds_bucket\\{le="0\\.5",${escapeRegExp(labels)}\\} \\d+`,
          "m",
        ),
      );
      expect(sample(text, `http_request_duration_seconds_count{${labels}}`)).toBeGreaterThan(0);
    }
    // Route patterns, never URLs with ids.
    expect(text).not.toMatch(/route="[^"]*\/\d+/);
  });

  it("lists every metric the operator watches, Node's own included", async () => {
    const text = await scrape();
    for (const name of [
      "http_request_duration_seconds",
      "studio_bookings_created_total",
      "studio_bookings_paid_total",
      "studio_bookings_cancelled_total",
      "studio_outbox_pending",
      "studio_outbox_oldest_pending_age_seconds",
      "studio_sqlite_busy_total",
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
