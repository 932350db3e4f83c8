import { SMTPServer } from "smtp-server";

/** An e-mail as the SMTP server received it: its envelope's recipients and the raw message. */
export type SunkMail = { to: string[]; raw: string };

/**
 * A real SMTP server on a free local port that accepts every message and keeps it in `mails`,
 * for a site under test to deliver its outbox to (`SMTP_URL: smtp://127.0.0.1:${port}`).
 * Plain Node: the integration tests and the browser tests both use it.
 */
export async function startSmtpSink(): Promise<{
  port: number;
  mails: SunkMail[];
  close(): Promise<void>;
}> {
  const mails: SunkMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const address = smtp.server.address();
  if (!address || typeof address === "string") throw new Error("SMTP server has no port");
  return {
    port: address.port,
    mails,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
