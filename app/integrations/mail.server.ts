import type { SendMailOptions } from "nodemailer";
import type { EmailAttachment } from "#app/domain/outbox";

/**
 * Mail as the outbox hands it to the mail server (workflows/deliver-email.server.ts); the
 * server itself is smtp.server.ts, picked by app/adapters.server.ts.
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
