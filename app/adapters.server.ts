import { env } from "#app/env.server";
import { chatIdentityHash } from "#app/integrations/chat.server";
import type { FileStorage } from "#app/integrations/file-storage.server";
import { localFileStorage } from "#app/integrations/file-storage-local.server";
import { s3FileStorage } from "#app/integrations/file-storage-s3.server";
import type { SmtpTransport } from "#app/integrations/mail.server";
import { sandboxProvider } from "#app/integrations/payments/sandbox.server";
import { stripeProvider } from "#app/integrations/payments/stripe.server";
import type { HostedCheckoutProvider, PaymentProvider } from "#app/integrations/payments/types";
import { createSmtpTransport } from "#app/integrations/smtp.server";

/** The one place that picks the adapters from the settings, read at each call so a test may switch one. */

let sharedStripe: { key: string; provider: HostedCheckoutProvider } | undefined;

/** PAYMENT_PROVIDER: `sandbox` (our card form, test cards, offline) or `stripe` (Checkout). */
export function paymentProvider(): PaymentProvider {
  if (env.PAYMENT_PROVIDER !== "stripe") return sandboxProvider;
  const key = env.STRIPE_SECRET_KEY;
  if (!key) throw new Error("STRIPE_SECRET_KEY is not set");
  // One client per process: it keeps its connections alive between calls.
  if (sharedStripe?.key !== key) {
    sharedStripe = {
      key,
      provider: stripeProvider({
        secretKey: key,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        apiUrl: env.STRIPE_API_URL,
      }),
    };
  }
  return sharedStripe.provider;
}

/**
 * Session files (docs/product.md "Session files"): S3 when S3_BUCKET is set, else FILES_DIR.
 * One per process, on globalThis like the database, so a dev reload does not open a second.
 */
export function fileStorage(): FileStorage {
  const shared = globalThis as { __studioFileStorage?: FileStorage };
  shared.__studioFileStorage ??= env.S3_BUCKET
    ? s3FileStorage({
        bucket: env.S3_BUCKET,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        accessKeyId: env.S3_ACCESS_KEY_ID ?? "",
        secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? "",
      })
    : localFileStorage(env.FILES_DIR);
  return shared.__studioFileStorage;
}

/**
 * The chat (INTERCOM_APP_ID), or null when the site runs none: `sign` gives a user id's
 * identity hash, null without INTERCOM_IDENTITY_SECRET (production requires it, env.server.ts).
 */
export function chatIdentity(): { sign(userId: number): string | null } | null {
  if (!env.INTERCOM_APP_ID) return null;
  const secret = env.INTERCOM_IDENTITY_SECRET;
  return { sign: (userId) => (secret ? chatIdentityHash(userId, secret) : null) };
}

/** Whether e-mail leaves the site: without SMTP_URL it waits in the outbox for staff. */
export function mailIsDelivered(): boolean {
  return env.SMTP_URL !== undefined;
}

/** A new transport to SMTP_URL's mail server, which its caller closes; null without one. */
export function openMailTransport(): SmtpTransport | null {
  return env.SMTP_URL ? createSmtpTransport(env.SMTP_URL) : null;
}
