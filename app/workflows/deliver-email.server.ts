import { env } from "#app/env.server";
import { type MailTransport, type SmtpTransport, smtpMessage } from "#app/integrations/mail.server";
import { logError, logEvent, logger } from "#app/log.server";
import {
  claimEmail,
  outboxBacklog,
  dueEmails,
  markEmailSent,
  type OutboxDatabase,
  recordEmailFailure,
} from "#app/models/outbox.server";

/**
 * The outbox (docs/product.md "E-mail"): rows written with the change that causes them. Delivery
 * is at least once: a send whose SENT mark was lost goes out again after the claim lease.
 */

export type { MailTransport };
/** The outbox's backlog, for the metrics (server/app.ts reads it at scrape time). */
export { outboxBacklog };

export const MAX_ATTEMPTS = 10;
const MINUTE_MS = 60_000;
const MAX_RETRY_DELAY_MS = 60 * MINUTE_MS;
/**
 * A row being sent is pushed this far into the future first, so an overlapping run (another
 * process) skips it. Longer than a send can take with the transport's timeouts
 * (integrations/smtp.server.ts).
 */
const CLAIM_LEASE_MS = 5 * MINUTE_MS;
const MAX_ERROR_LENGTH = 500;

/** 1 min after the first failure, then 2, 4, 8 ... capped at 1 hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MINUTE_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
}

/** The error's name, code and first line: never a stack, never the SMTP URL's password. */
export function describeSendError(error: unknown): string {
  if (!(error instanceof Error)) return "Non-error thrown";
  const code = "code" in error && typeof error.code === "string" ? ` [${error.code}]` : "";
  const firstLine = error.message.split("\n")[0]?.trim() ?? "";
  const text = `${error.name}${code}: ${firstLine}`;
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

export type DeliveryResult = { sent: number; failed: number; retried: number };

/** One bad message never stops the others, and this never throws because of one. */
export async function deliverDueEmails({
  db,
  transport,
  now = Date.now(),
  batchSize = 20,
  from = env.MAIL_FROM,
}: {
  db: OutboxDatabase;
  transport: MailTransport;
  now?: number;
  batchSize?: number;
  from?: string;
}): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0, retried: 0 };
  for (const row of dueEmails(db, now, batchSize)) {
    if (!claimEmail(db, row.id, now, now + CLAIM_LEASE_MS)) continue;

    // Only the send is guarded: a failure to record the outcome is not the message's fault.
    let sendError: { error: unknown } | undefined;
    try {
      await transport.sendMail(
        smtpMessage({
          from,
          to: row.toAddress,
          subject: row.subject,
          html: row.html,
          text: row.text,
          attachments: row.attachments ?? [],
        }),
      );
    } catch (error) {
      sendError = { error };
    }

    if (!sendError) {
      markEmailSent(db, row.id, now);
      result.sent += 1;
      logEvent("e-mail sent", { emailId: row.id, kind: row.kind, bookingId: row.bookingId });
    } else {
      const attempts = row.attempts + 1;
      const gaveUp = attempts >= MAX_ATTEMPTS;
      recordEmailFailure(db, row.id, {
        attempts,
        lastError: describeSendError(sendError.error),
        now,
        retryAt: gaveUp ? null : now + retryDelayMs(attempts),
      });
      if (gaveUp) result.failed += 1;
      else result.retried += 1;
      // The error's kind only: an SMTP server's reply may quote the recipient's address.
      const { error } = sendError;
      logEvent(
        "e-mail failed",
        {
          emailId: row.id,
          kind: row.kind,
          bookingId: row.bookingId,
          attempts,
          gaveUp,
          error: error instanceof Error ? error.name : "Non-error thrown",
          code: error instanceof Error && "code" in error ? String(error.code) : undefined,
        },
        "warn",
      );
    }
  }
  return result;
}

/** Runs never overlap; stop resolves once a run in progress finished, so the database can close. */
export function startEmailDelivery(options: {
  db: OutboxDatabase;
  /** The mail server (app/adapters.server.ts openMailTransport), or null without one. */
  transport: SmtpTransport | null;
  from?: string;
  intervalMs?: number;
  batchSize?: number;
}): () => Promise<void> {
  const { db, transport, from = env.MAIL_FROM, intervalMs = 5000, batchSize = 20 } = options;
  if (!transport) {
    logger.info("SMTP_URL is not set: e-mails stay in the outbox, readable by admins");
    return async () => {};
  }
  let running: Promise<void> | undefined;
  let stopped = false;

  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      try {
        const { sent, failed, retried } = await deliverDueEmails({
          db,
          transport,
          batchSize,
          from,
        });
        if (failed > 0 || retried > 0) {
          logEvent("e-mail delivery run", { sent, retried, failed }, "warn");
        }
      } catch (error) {
        // A database error, not a bad message: try again on the next tick.
        logError("email delivery", error);
      } finally {
        running = undefined;
      }
    })();
  };

  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();

  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
    transport.close();
  };
}
