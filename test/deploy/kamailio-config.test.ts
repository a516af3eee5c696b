import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/config/paths.js';
import { requireKamailio } from '../cluster/kamailio-instance.js';

// deploy/kamailio as its entrypoint renders it, checked by Kamailio itself (`kamailio -c`).

const DEPLOY = path.join(projectRoot(), 'deploy', 'kamailio');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function render(env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kamailio-etc-'));
  dirs.push(dir);
  const r = spawnSync('sh', [path.join(DEPLOY, 'entrypoint.sh'), '--render-only'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', KAMAILIO_TEMPLATES: DEPLOY, KAMAILIO_ETC: dir, KAMAILIO_CTL: path.join(dir, 'ctl'), ...env },
    encoding: 'utf8',
  });
  const check = () => spawnSync('kamailio', ['-c', '-f', path.join(dir, 'kamailio.cfg')], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr, dir, check };
}

describe('deploy/kamailio', () => {
  requireKamailio();
  const nodes = { KAMAILIO_LISTEN: 'udp:127.0.0.1:5060', KAMAILIO_ALIAS: 'sip.example.co.uk:5060', KAMAILIO_NODES: 'asterisk-1:5060,192.0.2.7:5060', KAMAILIO_CARRIERS: '198.51.100.0/24, sip.carrier.example:5060' };

  it('renders a configuration Kamailio accepts, with the nodes in dispatcher set 1 (names resolved when used)', () => {
    const r = render(nodes);
    expect(r.status, r.stderr).toBe(0);
    const checked = r.check();
    expect(checked.status, checked.stderr).toBe(0);
    expect(fs.readFileSync(path.join(r.dir, 'dispatcher.list'), 'utf8')).toMatch(/^1 sip:asterisk-1:5060 16\n1 sip:192\.0\.2\.7:5060\n$/m);
    const cfg = fs.readFileSync(path.join(r.dir, 'kamailio.cfg'), 'utf8');
    // Probing is on (Kamailio's default is off), and no reply code besides a real 200 counts as alive.
    expect(cfg).toMatch(/modparam\("dispatcher", "ds_ping_interval", [1-9]\d*\)/);
    expect(cfg).not.toMatch(/^modparam\("dispatcher", "ds_ping_reply_codes"/m);
    // Requests inside a call go only to these (issue 39, M6; test/cluster/in-call-hops.test.ts).
    const local = fs.readFileSync(path.join(r.dir, 'kamailio-local.cfg'), 'utf8');
    expect(local).toContain('#!substdef "!KAMAILIO_NODE_HOPS!asterisk-1:5060,192.0.2.7:5060!g"');
    expect(local).toContain('#!substdef "!KAMAILIO_CARRIER_HOPS!198.51.100.0/24,sip.carrier.example:5060!g"');
  });

  it('with a registration trunk: registers from Kamailio (uac), the account in its table', () => {
    const r = render({ ...nodes, SIP_REG_SERVER: 'sip.voip.example.co.uk:5060', SIP_REG_USERNAME: '442079460000', SIP_REG_PASSWORD: 'se:cret', DEFAULT_DID: '+442079460000' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.check().status).toBe(0);
    expect(fs.readFileSync(path.join(r.dir, 'kamailio-local.cfg'), 'utf8')).toContain('#!define WITH_REGISTRATION');
    // db_text's separator inside a value is escaped.
    expect(fs.readFileSync(path.join(r.dir, 'db', 'uacreg'), 'utf8')).toContain(':se\\:cret:');
    // The registrar is one of the carrier's addresses, without being listed.
    const alone = render({ ...nodes, KAMAILIO_CARRIERS: '', SIP_REG_SERVER: 'sip.voip.example.co.uk:5060', SIP_REG_USERNAME: 'u', SIP_REG_PASSWORD: 'p', DEFAULT_DID: '+442079460000' });
    expect(alone.status, alone.stderr).toBe(0);
    expect(fs.readFileSync(path.join(alone.dir, 'kamailio-local.cfg'), 'utf8')).toContain('#!substdef "!KAMAILIO_CARRIER_HOPS!sip.voip.example.co.uk!g"');
  });

  it('behind NAT (KAMAILIO_ADVERTISE): listens on its interface, advertises the public address, records two routes', () => {
    const r = render({ KAMAILIO_LISTEN: 'udp:lo:5060', KAMAILIO_ADVERTISE: '203.0.113.10:5060', KAMAILIO_NODES: 'asterisk:5060,asterisk-b:5060', KAMAILIO_CARRIERS: '198.51.100.7' });
    expect(r.status, r.stderr).toBe(0);
    const checked = r.check();
    expect(checked.status, checked.stderr).toBe(0);
    const local = fs.readFileSync(path.join(r.dir, 'kamailio-local.cfg'), 'utf8');
    expect(local).toContain('#!define WITH_ADVERTISE');
    expect(local).toContain('#!substdef "!KAMAILIO_LISTEN!udp:lo:5060 advertise 203.0.113.10:5060!g"');
    expect(local).toContain('#!substdef "!KAMAILIO_ALIAS!203.0.113.10:5060!g"');
  });

  it('refuses to start without what it needs, saying what to set', () => {
    for (const wildcard of ['udp:0.0.0.0:5060', 'udp:[::]:5060']) {
      const r = render({ KAMAILIO_LISTEN: wildcard, KAMAILIO_ALIAS: 'sip.example.co.uk:5060', KAMAILIO_NODES: 'a:5060' });
      expect(r.status, wildcard).toBe(2);
      expect(r.stderr).toMatch(/KAMAILIO_LISTEN must name one address or interface/);
    }
    const noAlias = render({ KAMAILIO_LISTEN: 'udp:eth0:5060', KAMAILIO_NODES: 'a:5060' });
    expect(noAlias.status).toBe(2);
    expect(noAlias.stderr).toMatch(/set KAMAILIO_ADVERTISE \(behind NAT\) or KAMAILIO_ALIAS/);
    const noDid = render({ ...nodes, SIP_REG_SERVER: 'sip.voip.example.co.uk', SIP_REG_USERNAME: 'u', SIP_REG_PASSWORD: 'p' });
    expect(noDid.status).toBe(2);
    expect(noDid.stderr).toMatch(/DEFAULT_DID names the number/);
    const noCarrier = render({ ...nodes, KAMAILIO_CARRIERS: '' });
    expect(noCarrier.status).toBe(2);
    expect(noCarrier.stderr).toMatch(/set KAMAILIO_CARRIERS to the carrier's signalling addresses/);
    for (const bad of ['198.51.100.0/24;lr', 'sip:carrier.example', '198.51.100.1 198.51.100.2,-bad-']) {
      const r = render({ ...nodes, KAMAILIO_CARRIERS: bad });
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toMatch(/KAMAILIO_CARRIERS lists ".+": give IPv4 addresses, ranges \(a\.b\.c\.d\/n\) or host names/);
    }
    const noNodes = render({ KAMAILIO_LISTEN: 'udp:127.0.0.1:5060', KAMAILIO_CARRIERS: '198.51.100.7' });
    expect(noNodes.status).toBe(2);
    expect(noNodes.stderr).toMatch(/no nodes: set KAMAILIO_NODES/);
  });
});
