// Issue 44: the line's state names the SIP trunk. The real Asterisk 20.17.0 (test/pbx-real's
// harness) runs the project's `registration` trunk against a provider's registrar played by a
// real Kamailio 5.6 (registrar module) on loopback; the core learns the registration's state
// from Asterisk (pbx/trunk-watch.ts). Registered → up; the registrar stopped → the owner's
// banner and the admin's status say the trunk is down; back → registered; the registrar
// refusing (403) → down again. A box whose Asterisk has no trunk says so, not "down".
// Every change is waited on by condition: Asterisk notices only when it registers again, which
// the registrar's short Expires (15 s) brings round every few seconds.
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ApiAdminLineState, ApiOwnerLineState } from '../../contract/api.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { KamailioInstance } from '../cluster/kamailio-instance.js';
import { startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { seriousViolations } from '../e2e/support/axe.js';
import { CHROMIUM_ARGS, adoptSession } from '../e2e/support/browser.js';
import { ensureConsoleBuilt } from '../e2e/support/build-console.js';

vi.setConfig({ testTimeout: 600_000 });

/** A provider's registrar: takes every REGISTER (Expires at most 15 s) unless told to refuse with 403; answers OPTIONS. */
const registrarConfig = (listen: string, ctl: string) => `#!KAMAILIO
debug=2
log_stderror=yes
children=1
listen=${listen}
mpath="/usr/lib/x86_64-linux-gnu/kamailio/modules/"
loadmodule "kex.so"
loadmodule "sl.so"
loadmodule "textops.so"
loadmodule "pv.so"
loadmodule "ctl.so"
loadmodule "usrloc.so"
loadmodule "registrar.so"
modparam("ctl", "binrpc", "${ctl}")
modparam("pv", "shvset", "refuse=i:0")
modparam("usrloc", "db_mode", 0)
modparam("registrar", "min_expires", 1)
modparam("registrar", "max_expires", 15)
request_route {
  if (is_method("REGISTER")) {
    if ($shv(refuse) == 1) { sl_send_reply("403", "Forbidden"); exit; }
    if (!save("location")) sl_reply_error();
    exit;
  }
  if (is_method("OPTIONS")) { sl_send_reply("200", "OK"); exit; }
  sl_send_reply("404", "Not Here");
}
`;

/** Asterisk's registration retry is 60 s (registration.conf) and a dead registrar takes 32 s to time out: generous, for a loaded machine. */
const CHANGE = { timeout: 180_000, interval: 500 };

const started: Array<{ close(): Promise<void> } | { stop(): Promise<void> }> = [];
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  for (const s of started.reverse()) await ('close' in s ? s.close() : s.stop());
});

type Client = Awaited<ReturnType<typeof signInAdmin>>;

async function lineOf(owner: Client, admin: Client) {
  const o = await owner.get<ApiOwnerLineState>('/api/line-state');
  const a = await admin.get<ApiAdminLineState>('/api/admin/line-state');
  expect(o.status).toBe(200);
  expect(a.status).toBe(200);
  return { owner: o.body, trunk: a.body.trunk };
}

describe('the SIP trunk in the line state, with a real Asterisk and a real registrar', () => {
  it('registered → up; registrar stopped → down for the owner and the admin; back → up; refusing (403) → down', async () => {
    const registrar = await KamailioInstance.startConfig(registrarConfig);
    started.push(registrar);
    const server = `127.0.0.1:${registrar.port}`;
    const h: RealPbx = await startRealPbx({ consoleDir: ensureConsoleBuilt(), asteriskEnv: { SIP_TRUNKS: 'registration', SIP_REG_SERVER: server, SIP_REG_USERNAME: 'box-line-1', SIP_REG_PASSWORD: 'not-checked' } });
    started.push(h);
    const owner = (await activeCustomer(h.server)).client;
    const admin = await signInAdmin(h.server);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });

    // Registered: the registrar holds the box's contact, and the line state says so.
    await vi.waitFor(async () => {
      const line = await lineOf(owner, admin);
      expect(line.trunk).toMatchObject({ name: 'Phone line (SIP trunk)', state: 'up', detail: `Registered with ${server}: calls can reach this box` });
      expect(line.owner.problems).toEqual([]);
    }, CHANGE);
    expect(registrar.rpc('ul.dump')).toContain('box-line-1');

    // The registrar goes away: Asterisk's next registration is not answered.
    await registrar.halt();
    const down = await vi.waitFor(async () => {
      const line = await lineOf(owner, admin);
      expect(line.trunk.state).toBe('down');
      // The owner's and the admin's views are two requests: the change can land between them.
      expect(line.owner.problems.map((p: { id: string }) => p.id)).toEqual(['trunk-down']);
      return line;
    }, CHANGE);
    expect(down.trunk.detail).toMatch(new RegExp(`^Not registered with ${server} \\((Rejected|Unregistered)\\): the provider cannot send calls to this box\\. Asterisk keeps trying; if it lasts, check SIP_REG_SERVER, SIP_REG_USERNAME and SIP_REG_PASSWORD with the provider$`));
    expect(down.owner.problems).toEqual([
      {
        id: 'trunk-down',
        since: down.trunk.since,
        message: expect.stringMatching(
          /^Your line is not answering calls: the phone line provider has not accepted this box since \d+ \w+, \d\d:\d\d, so calls to your number cannot reach it and no message is taken\. Your operator, .+ \(.+@.+\), sees this on their status page; if it lasts, contact them\.$/,
        ) as string,
      },
    ]);
    // Calls still reach Asterisk's WebRTC side: "Call my line" is not the trunk's.
    expect(down.owner.testCallAvailable).toBe(true);

    // What the owner (375 px) and the admin (1280 px) see: the banner and the Line Status row.
    const ownerPage = await (await browser.newContext({ viewport: { width: 375, height: 800 }, baseURL: h.server.url })).newPage();
    await adoptSession(ownerPage, owner, h.server.url);
    await ownerPage.goto('/dashboard');
    await ownerPage.getByTestId('line-banner').getByText(down.owner.problems[0]!.message, { exact: true }).waitFor({ timeout: 30_000 });
    expect(await seriousViolations(ownerPage)).toEqual([]);
    const adminPage = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: h.server.url })).newPage();
    await adoptSession(adminPage, admin, h.server.url);
    await adminPage.goto('/dashboard/admin');
    const trunkRow = adminPage.getByRole('list', { name: 'Line status' }).getByRole('listitem').filter({ hasText: 'Phone line (SIP trunk)' });
    await trunkRow.getByText('Down', { exact: true }).waitFor({ timeout: 30_000 });
    await trunkRow.getByText(down.trunk.detail, { exact: true }).waitFor();
    expect(await seriousViolations(adminPage)).toEqual([]);

    // Back: Asterisk's retry registers again.
    await registrar.run();
    await vi.waitFor(async () => {
      const line = await lineOf(owner, admin);
      expect(line.trunk.state).toBe('up');
      expect(line.owner.problems).toEqual([]);
    }, CHANGE);

    // Refusing (403 Forbidden) on the next registration: down again.
    registrar.rpc('pv.shvSet', 'refuse', 'int', '1');
    await vi.waitFor(async () => {
      const line = await lineOf(owner, admin);
      expect(line.trunk.state).toBe('down');
      expect(line.trunk.detail).toMatch(/^Not registered with .+ \(Rejected\)/);
      expect(line.owner.problems.map((p: { id: string }) => p.id)).toEqual(['trunk-down']);
    }, CHANGE);
  });

  it('a box whose Asterisk has no trunk says so plainly, to the admin and the owner, not "down"', async () => {
    const h = await startRealPbx({ asteriskEnv: { SIP_TRUNKS: '' } });
    started.push(h);
    const owner = (await activeCustomer(h.server)).client;
    const admin = await signInAdmin(h.server);
    const line = await vi.waitFor(async () => {
      const l = await lineOf(owner, admin);
      expect(l.trunk.state).toBe('off');
      return l;
    }, CHANGE);
    expect(line.trunk.detail).toBe('No SIP trunk is set up on this box (SIP_TRUNKS is empty): no call can reach it');
    expect(line.owner.problems).toEqual([
      {
        id: 'no-trunk',
        since: line.trunk.since,
        message: expect.stringMatching(/^Your line cannot take calls yet: this box has no phone line from a provider \(SIP trunk\) set up, so no call can reach it\. Your operator sets this up; contact them: .+ \(.+@.+\)\.$/),
      },
    ]);
  });
});
