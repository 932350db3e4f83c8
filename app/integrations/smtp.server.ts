import nodemailer from "nodemailer";
import type { SmtpTransport } from "#app/integrations/mail.server";

export function createSmtpTransport(url: string): SmtpTransport {
  return nodemailer.createTransport({
    url,
    // Nodemailer's defaults wait minutes on a silent server.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
}
