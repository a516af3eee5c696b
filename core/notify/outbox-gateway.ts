import fs from 'node:fs/promises';
import path from 'node:path';
import type { MessageGateway, OutgoingMessage } from './gateway.js';

/**
 * Without Twilio, each message is a JSON file in `$DATA_DIR/outbox/sms/` named by its key,
 * written with O_EXCL: the same message can never be written twice, so reconciling after a
 * crash is just looking for the file.
 */
export function createOutboxGateway(dir: string): MessageGateway {
  const fileFor = (m: OutgoingMessage) => path.join(dir, `${m.key.replace(/[^\w.-]/g, '_')}.json`);
  return {
    name: 'outbox',
    async send(m) {
      await fs.mkdir(dir, { recursive: true });
      const file = fileFor(m);
      const record = { channel: m.channel, to: m.to, from: m.businessNumber, body: m.body, key: m.key, createdAt: new Date().toISOString() };
      try {
        await fs.writeFile(file, `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
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
