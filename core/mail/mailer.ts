import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailMessage } from './templates.js';
import type { Log } from '../../contract/log.js';

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: Pick<Log, 'info'>;
}

/**
 * Whether a failed send may work later. A relay that is down, slow or says 4xx ("try again")
 * may; a 5xx reply (no such mailbox, message refused) will not. Nodemailer puts the SMTP
 * reply code in `responseCode`.
 */
export function isMailRetryable(err: unknown): boolean {
  const code = err && typeof err === 'object' && 'responseCode' in err ? Number((err as { responseCode: unknown }).responseCode) : NaN;
  return !(code >= 500 && code < 600);
}

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as an .eml file
 * under the outbox, so a box without a mail relay still keeps every mail.
 */
export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
        opts.log.info({ subject: m.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      opts.log.info({ file: path.basename(file), subject: m.subject }, 'mail written to outbox');
    },
    close: () => transport.close(),
  };
}
