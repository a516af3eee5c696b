import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutboxGateway } from './outbox-gateway.js';
import type { OutgoingMessage } from './gateway.js';

const message = (key: string): OutgoingMessage => ({ channel: 'sms', to: '+447700900123', businessNumber: '+447700900001', body: 'New voicemail.', key });

describe('the outbox folder (texts without Twilio)', () => {
  let root: string;
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('puts each message down whole, once: the same key twice is one file, and nothing is left beside the folder', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    const dir = path.join(root, 'sms');
    const gateway = createOutboxGateway(dir);
    await Promise.all([gateway.send(message('summary:7')), gateway.send(message('summary:7')), gateway.send(message('reply:8'))]);
    expect(fs.readdirSync(dir).sort()).toEqual(['reply_8.json', 'summary_7.json']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'summary_7.json'), 'utf8'))).toMatchObject({ to: '+447700900123', body: 'New voicemail.', key: 'summary:7' });
    expect(fs.readdirSync(`${dir}.writing`)).toEqual([]);
    expect(await gateway.reconcile(message('summary:7'), new Date(0))).toMatchObject({ sent: true });
  });

  it('a message whose writing was cut short (a crash) is not taken for sent', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    const dir = path.join(root, 'sms');
    fs.mkdirSync(`${dir}.writing`, { recursive: true });
    fs.writeFileSync(path.join(`${dir}.writing`, 'summary_9.json.cut-short'), '{"chan');
    expect(await createOutboxGateway(dir).reconcile(message('summary:9'), new Date(0))).toEqual({ sent: false });
  });
});
