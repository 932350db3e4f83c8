import client from "prom-client";

/**
 * docs/decisions/0085-metrics-on-a-private-port.md. Kept on globalThis: a dev reload re-runs
 * this module, and prom-client refuses a second metric of the same name.
 */
function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = (name: string, help: string) => new client.Counter({ name, help, registers });
  const gauge = (name: string, help: string, read: () => number) =>
    new client.Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });

  let outbox: () => { pending: number; oldestPendingAgeSeconds: number } = () => ({
    pending: 0,
    oldestPendingAgeSeconds: 0,
  });

  return {
    registry,
    httpRequestDuration: new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      // From a cached file to a slow page on a shared CPU.
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    bookingsCreated: counter(
      "studio_bookings_created_total",
      "Bookings created (free ones confirmed at once, the others holding their slot unpaid)",
    ),
    bookingsPaid: counter(
      "studio_bookings_paid_total",
      "Payments recorded for a booking (card, hosted checkout, webhook)",
    ),
    bookingsCancelled: new client.Counter({
      name: "studio_bookings_cancelled_total",
      help: "Bookings cancelled by their customer or by the studio (expired holds not counted)",
      labelNames: ["by"] as const,
      registers,
    }),
    sqliteBusy: counter(
      "studio_sqlite_busy_total",
      "Writes that waited past busy_timeout for SQLite's write lock and were answered 503 with Retry-After (the client retries)",
    ),
    outboxPending: gauge(
      "studio_outbox_pending",
      "E-mails waiting in the outbox (PENDING), read from the database at scrape time",
      () => outbox().pending,
    ),
    outboxOldestAge: gauge(
      "studio_outbox_oldest_pending_age_seconds",
      "Age of the oldest PENDING e-mail (0 when none); grows without SMTP_URL by design",
      () => outbox().oldestPendingAgeSeconds,
    ),
    watchOutbox(read: typeof outbox) {
      outbox = read;
    },
  };
}

const globalForMetrics = globalThis as { __studioMetrics?: ReturnType<typeof createMetrics> };
export const metrics = globalForMetrics.__studioMetrics ?? createMetrics();
globalForMetrics.__studioMetrics = metrics;
