import nodemailer, { type SendMailOptions } from "nodemailer";
import type { EmailAttachment } from "#app/domain/outbox";

/** Tests may pass their own. */
export type MailTransport = { sendMail(message: SendMailOptions): Promise<unknown> };

export type SmtpTransport = MailTransport & { close(): void };

export type MailMessage = {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: EmailAttachment[];
};

export function createSmtpTransport(url: string): SmtpTransport {
  return nodemailer.createTransport({
    url,
    // Nodemailer's defaults wait minutes on a silent server.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
}

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
