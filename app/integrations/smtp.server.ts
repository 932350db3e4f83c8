import nodemailer from "nodemailer";
import type { SmtpTransport } from "#app/integrations/mail.server";

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
