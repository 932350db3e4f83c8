import nodemailer, { type SendMailOptions } from "nodemailer";
import type { EmailAttachment } from "#app/domain/outbox";

/**
 * The mail server, over SMTP with nodemailer. Configured by its arguments only: the caller
 * brings the URL and keeps the outbox (workflows/deliver-email.server.ts).
 */

/** The part of a nodemailer transport delivery uses, so tests may pass their own. */
export type MailTransport = { sendMail(message: SendMailOptions): Promise<unknown> };

/** A transport the poller opened, closed when it stops. */
export type SmtpTransport = MailTransport & { close(): void };

/** One e-mail as the outbox keeps it, from a sender. */
export type MailMessage = {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: EmailAttachment[];
};

/** A transport to the mail server at `url` (smtp://user:pass@host:port or smtps://...). */
export function createSmtpTransport(url: string): SmtpTransport {
  return nodemailer.createTransport({
    url,
    // Nodemailer's defaults wait minutes on a silent server; a poller should give up sooner.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
}

/** The message as nodemailer sends it: base64 attachments, marked as automatic mail. */
export function smtpMessage(mail: MailMessage): SendMailOptions {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    attachments: mail.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: attachment.content,
      encoding: "base64",
    })),
    headers: { "Auto-Submitted": "auto-generated" },
  };
}
