import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

interface ReceivedMail {
  to: string[];
  /** Parsed by mailparser: subject, text and html decoded as a mail client would. */
  mail: ParsedMail;
}

export interface SmtpDouble {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next message is refused with this SMTP reply (e.g. 451 for "try again later"). */
  refuseNext(code: number, message: string): void;
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server): the mail path runs as in production, nodemailer over SMTP. */
export async function startSmtpServer(): Promise<SmtpDouble> {
  const received: ReceivedMail[] = [];
  const refusals: { code: number; message: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      const refusal = refusals.shift();
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusal) return done(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
            done();
          },
          (err: Error) => done(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext: (code, message) => void refusals.push({ code, message }),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
