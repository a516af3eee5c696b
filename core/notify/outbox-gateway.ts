import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { MessageGateway, OutgoingMessage } from './gateway.js';

/**
 * Without Twilio, each message is a JSON file in `$DATA_DIR/outbox/sms/` named by its key. It
 * appears whole or not at all: written beside the folder (`sms.writing/`) and linked in under its
 * name, which fails if the name exists, so the same message can never be written twice and
 * reconciling after a crash is just looking for the file. (Created in place with O_EXCL, a
 * reader saw an empty file mid-write, and a crash then left one that reconciled as sent.)
 */
export function createOutboxGateway(dir: string): MessageGateway {
  const fileFor = (m: OutgoingMessage) => path.join(dir, `${m.key.replace(/[^\w.-]/g, '_')}.json`);
  const writing = `${dir}.writing`;
  return {
    name: 'outbox',
    async send(m) {
      await fs.mkdir(dir, { recursive: true });
      await fs.mkdir(writing, { recursive: true });
      const file = fileFor(m);
      const record = { channel: m.channel, to: m.to, from: m.businessNumber, body: m.body, key: m.key, createdAt: new Date().toISOString() };
      const temp = path.join(writing, `${path.basename(file)}.${randomUUID()}`);
      try {
        await fs.writeFile(temp, `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx' });
        await fs.link(temp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        await fs.rm(temp, { force: true });
      }
      return { providerId: `outbox:${path.basename(file)}` };
    },
    async reconcile(m) {
      try {
        await fs.access(fileFor(m));
        return { sent: true, providerId: `outbox:${path.basename(fileFor(m))}` };
      } catch {
        return { sent: false };
      }
    },
  };
}
