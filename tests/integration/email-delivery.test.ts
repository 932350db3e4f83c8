import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { SMTPServer, type SMTPServerError } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "#app/db.server";
import { createSmtpTransport } from "#app/integrations/smtp.server";
import {
  deliverDueEmails,
  MAX_ATTEMPTS,
  retryDelayMs,
  startEmailDelivery,
} from "#app/workflows/deliver-email.server";
import { enqueueEmail, type OutgoingEmail } from "#app/models/outbox.server";
import { emailOutbox } from "#db/schema";

/**
 * The outbox against a real SMTP server (smtp-server) on a local port, and against that port
 * closed: what happens to the rows when the mail server is down and when it comes back.
 */

const FROM = "ATL Creator Studio <bookings@studio.test>";
const MINUTE = 60_000;

type Received = { mailFrom: string; rcptTo: string[]; raw: string };
type TestSmtp = { port: number; received: Received[]; close(): Promise<void> };

const servers = new Set<TestSmtp>();

/** A real SMTP server; recipients starting with "reject" get a permanent 550. */
async function startSmtp(port = 0): Promise<TestSmtp> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("reject")) {
        const error: SMTPServerError = new Error("Mailbox unavailable");
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address === "string") throw new Error("SMTP server has no port");
  const smtp: TestSmtp = {
    port: address.port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        servers.delete(smtp);
        server.close(() => resolve());
      }),
  };
  servers.add(smtp);
  return smtp;
}

/** A port nothing listens on: connections to it are refused, like a mail server that is down. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

const transportTo = (port: number) =>
  nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    connectionTimeout: 2000,
    greetingTimeout: 2000,
    socketTimeout: 5000,
  });

function message(overrides: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    kind: "test",
    to: "ada@example.com",
    subject: "Your session is booked",
    html: "<p>Hello Ada, your session is booked.</p>",
    text: "Hello Ada, your session is booked.",
    ...overrides,
  };
}

const row = (id: number) => {
  const found = db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
  if (!found) throw new Error(`No outbox row ${id}`);
  return found;
};

/** The header as sent (unfolded), e.g. header(raw, "Subject"). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, " ") ?? "";
  const line = head
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

async function waitFor(condition: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("Timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeEach(() => {
  db.delete(emailOutbox).run();
});

afterEach(async () => {
  await Promise.all([...servers].map((server) => server.close()));
});

describe("enqueueEmail", () => {
  it("writes a PENDING row inside the caller's transaction, and nothing if it rolls back", () => {
    const id = db.transaction((tx) =>
      enqueueEmail(
        tx,
        message({
          kind: "booking-confirmed",
          attachments: [
            {
              filename: "session.ics",
              contentType: "text/calendar",
              content: Buffer.from("BEGIN:VCALENDAR").toString("base64"),
            },
          ],
        }),
      ),
    );
    expect(row(id)).toMatchObject({
      kind: "booking-confirmed",
      toAddress: "ada@example.com",
      subject: "Your session is booked",
      status: "PENDING",
      attempts: 0,
      bookingId: null,
      lastError: null,
      sentAt: null,
      attachments: [
        {
          filename: "session.ics",
          contentType: "text/calendar",
          content: Buffer.from("BEGIN:VCALENDAR").toString("base64"),
        },
      ],
    });
    expect(Math.abs(row(id).nextAttemptAt - Date.now())).toBeLessThan(5000);

    expect(() =>
      db.transaction((tx) => {
        enqueueEmail(tx, message({ subject: "Rolled back" }));
        throw new Error("the booking failed");
      }),
    ).toThrow("the booking failed");
    expect(db.select().from(emailOutbox).all()).toHaveLength(1);
  });
});

describe("deliverDueEmails", () => {
  it("delivers due messages over SMTP, with their attachments, and marks them SENT", async () => {
    const smtp = await startSmtp();
    const ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n";
    const first = enqueueEmail(db, message());
    const second = enqueueEmail(
      db,
      message({
        to: "grace@example.com",
        subject: "Your session is confirmed",
        text: "Hello Grace, see you soon.",
        attachments: [
          {
            filename: "session.ics",
            contentType: "text/calendar",
            content: Buffer.from(ics).toString("base64"),
          },
        ],
      }),
    );
    const now = Date.now();

    const result = await deliverDueEmails({
      db,
      transport: transportTo(smtp.port),
      now,
      from: FROM,
    });

    expect(result).toEqual({ sent: 2, failed: 0, retried: 0 });
    expect(smtp.received).toHaveLength(2);
    const [ada, grace] = smtp.received;
    expect(ada?.rcptTo).toEqual(["ada@example.com"]);
    expect(ada?.mailFrom).toBe("bookings@studio.test");
    expect(header(ada?.raw ?? "", "Subject")).toBe("Your session is booked");
    expect(header(ada?.raw ?? "", "To")).toBe("ada@example.com");
    expect(header(ada?.raw ?? "", "From")).toBe(FROM);
    expect(header(ada?.raw ?? "", "Auto-Submitted")).toBe("auto-generated");
    expect(ada?.raw).toContain("Hello Ada, your session is booked.");
    expect(ada?.raw).toContain("<p>Hello Ada, your session is booked.</p>");
    expect(grace?.rcptTo).toEqual(["grace@example.com"]);
    expect(header(grace?.raw ?? "", "Subject")).toBe("Your session is confirmed");
    expect(grace?.raw).toContain("Hello Grace, see you soon.");
    expect(grace?.raw).toMatch(/Content-Type: text\/calendar; name=session\.ics/);
    expect(grace?.raw).toContain(Buffer.from(ics).toString("base64"));

    for (const id of [first, second]) {
      expect(row(id)).toMatchObject({ status: "SENT", sentAt: now, attempts: 0, lastError: null });
    }

    // Sent is sent: a later run sends nothing again.
    expect(
      await deliverDueEmails({ db, transport: transportTo(smtp.port), now: now + MINUTE }),
    ).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(smtp.received).toHaveLength(2);
  });

  it("keeps messages while SMTP is down and delivers them once when it is back", async () => {
    const smtp = await startSmtp();
    const port = smtp.port;
    const transport = transportTo(port);
    await smtp.close();

    const ids = [
      enqueueEmail(db, message({ subject: "First while down" })),
      enqueueEmail(db, message({ subject: "Second while down", to: "grace@example.com" })),
    ];
    const t0 = Date.now();

    const down = await deliverDueEmails({ db, transport, now: t0, from: FROM });
    expect(down).toEqual({ sent: 0, failed: 0, retried: 2 });
    for (const id of ids) {
      const failed = row(id);
      expect(failed).toMatchObject({ status: "PENDING", attempts: 1, sentAt: null });
      expect(failed.nextAttemptAt).toBe(t0 + MINUTE);
      expect(failed.lastError).toMatch(/ECONNREFUSED/);
      // Short: name and first line, no stack trace.
      expect(failed.lastError).not.toMatch(/\n|\bat \S+ \(/);
    }

    // Not due yet: nothing is attempted, even though the server is back.
    const back = await startSmtp(port);
    expect(await deliverDueEmails({ db, transport, now: t0 + MINUTE - 1, from: FROM })).toEqual({
      sent: 0,
      failed: 0,
      retried: 0,
    });
    expect(back.received).toHaveLength(0);
    expect(row(ids[0] ?? 0).attempts).toBe(1);

    const later = t0 + MINUTE + 1000;
    expect(await deliverDueEmails({ db, transport, now: later, from: FROM })).toEqual({
      sent: 2,
      failed: 0,
      retried: 0,
    });
    expect(back.received.map((mail) => header(mail.raw, "Subject"))).toEqual([
      "First while down",
      "Second while down",
    ]);
    for (const id of ids) {
      expect(row(id)).toMatchObject({
        status: "SENT",
        sentAt: later,
        attempts: 1,
        lastError: null,
      });
    }

    // Received exactly once: another run later sends nothing more.
    await deliverDueEmails({ db, transport, now: later + 10 * MINUTE, from: FROM });
    expect(back.received).toHaveLength(2);
  });

  it("backs off exponentially, capped at an hour, and gives up after the last attempt", async () => {
    const transport = transportTo(await closedPort());
    const id = enqueueEmail(db, message({ subject: "Never delivered" }));
    let now = Date.now();
    const delays: number[] = [];

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt += 1) {
      expect(await deliverDueEmails({ db, transport, now, from: FROM })).toEqual({
        sent: 0,
        failed: 0,
        retried: 1,
      });
      const pending = row(id);
      expect(pending).toMatchObject({ status: "PENDING", attempts: attempt });
      delays.push(pending.nextAttemptAt - now);
      now = pending.nextAttemptAt;
    }
    expect(delays.map((ms) => ms / MINUTE)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(delays).toEqual(delays.map((_, index) => retryDelayMs(index + 1)));

    expect(await deliverDueEmails({ db, transport, now, from: FROM })).toEqual({
      sent: 0,
      failed: 1,
      retried: 0,
    });
    expect(row(id)).toMatchObject({ status: "FAILED", attempts: MAX_ATTEMPTS, sentAt: null });
    expect(row(id).lastError).toMatch(/ECONNREFUSED/);

    // A FAILED message is never picked up again, whatever the time.
    const smtp = await startSmtp();
    expect(
      await deliverDueEmails({
        db,
        transport: transportTo(smtp.port),
        now: now + 24 * 60 * MINUTE,
      }),
    ).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(smtp.received).toHaveLength(0);
    expect(row(id).status).toBe("FAILED");
  });

  it("does not let one rejected message hold up the others", async () => {
    const smtp = await startSmtp();
    const ids = [
      enqueueEmail(db, message({ subject: "One" })),
      enqueueEmail(db, message({ subject: "Bounced", to: "reject@example.com" })),
      enqueueEmail(db, message({ subject: "Three" })),
    ];
    const now = Date.now();

    const result = await deliverDueEmails({
      db,
      transport: transportTo(smtp.port),
      now,
      from: FROM,
    });

    expect(result).toEqual({ sent: 2, failed: 0, retried: 1 });
    expect(smtp.received.map((mail) => header(mail.raw, "Subject"))).toEqual(["One", "Three"]);
    expect(row(ids[0] ?? 0).status).toBe("SENT");
    expect(row(ids[2] ?? 0).status).toBe("SENT");
    const bounced = row(ids[1] ?? 0);
    expect(bounced).toMatchObject({ status: "PENDING", attempts: 1, nextAttemptAt: now + MINUTE });
    expect(bounced.lastError).toMatch(/550|Mailbox unavailable/);
  });

  it("sends at most batchSize messages a run, oldest first", async () => {
    const smtp = await startSmtp();
    for (const subject of ["a", "b", "c"]) enqueueEmail(db, message({ subject }));
    const transport = transportTo(smtp.port);
    const now = Date.now();

    expect(await deliverDueEmails({ db, transport, now, batchSize: 2 })).toMatchObject({ sent: 2 });
    expect(await deliverDueEmails({ db, transport, now, batchSize: 2 })).toMatchObject({ sent: 1 });
    expect(smtp.received.map((mail) => header(mail.raw, "Subject"))).toEqual(["a", "b", "c"]);
  });
});

describe("startEmailDelivery", () => {
  it("polls the outbox and delivers over the SMTP URL until stopped", async () => {
    const smtp = await startSmtp();
    const stop = startEmailDelivery({
      db,
      transport: createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`),
      from: FROM,
      intervalMs: 25,
    });
    try {
      const id = enqueueEmail(db, message({ subject: "Polled" }));
      await waitFor(() => smtp.received.length === 1);
      await waitFor(() => row(id).status === "SENT");
      expect(header(smtp.received[0]?.raw ?? "", "Subject")).toBe("Polled");
    } finally {
      await stop();
    }

    // Stopped: a new message stays in the outbox.
    const later = enqueueEmail(db, message({ subject: "After stop" }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(row(later).status).toBe("PENDING");
    expect(smtp.received).toHaveLength(1);
  });

  it("without a mail server sends nothing and leaves e-mails readable in the outbox", async () => {
    const stop = startEmailDelivery({ db, transport: null, intervalMs: 10 });
    const id = enqueueEmail(db, message());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(row(id)).toMatchObject({ status: "PENDING", attempts: 0 });
    await stop();
  });
});
