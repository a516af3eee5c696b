import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config/config.js';
import { all, findSections, last, parseAsteriskConf, type ConfFile } from './asterisk-conf.js';
import { ASTERISK_DIR, renderAsteriskConfig, templateConf, type Rendered } from './render.js';

// Asterisk cannot run here: these tests render the real templates with the real
// entrypoint and envsubst, parse the result, and check what Asterisk would read.
const rendered: Rendered[] = [];
function render(env: Record<string, string>) {
  const r = renderAsteriskConfig(env);
  rendered.push(r);
  return r;
}
afterAll(() => rendered.forEach((r) => fs.rmSync(r.dir, { recursive: true, force: true })));

const coreDefaults = loadConfig({});
const ALL_TRUNKS = {
  ARI_PASSWORD: 'ari-secret-123',
  SIP_TRUNKS: 'uk-did,registration,twilio',
  SIP_UKDID_HOST: 'sip.provider.example.co.uk',
  SIP_UKDID_MATCH: '198.51.100.0/28',
  SIP_REG_SERVER: 'sip.voip.example.co.uk',
  SIP_REG_USERNAME: '442079460000',
  SIP_REG_PASSWORD: 'reg-secret-456',
  SIP_TWILIO_TERMINATION: 'acme.pstn.twilio.com',
  SIP_PUBLIC_ADDRESS: '203.0.113.10',
};

/** Every dialplan step of a context, in order (exten and same lines). */
function steps(conf: ConfFile, context: string): string[] {
  return findSections(conf, context).flatMap((s) => s.entries.filter((e) => e.key === 'exten' || e.key === 'same').map((e) => e.value));
}

describe('extensions.conf', () => {
  it('sends every inbound DID to Stasis with the core’s default app name', () => {
    const r = render({ ARI_PASSWORD: 'x' });
    expect(r.status, r.stderr).toBe(0);
    const inbound = steps(r.conf('extensions.conf'), 'inbound');
    expect(inbound[0]).toMatch(/^_\[\+0-9\]\.,1,/);
    const stasis = inbound.find((s) => s.includes('Stasis('));
    expect(stasis).toBe(`n,Stasis(${coreDefaults.ari.app},\${EXTEN})`);
    // The template itself reads as the operator expects, app name from the environment.
    expect(steps(templateConf('extensions.conf'), 'inbound')).toContain('n,Stasis(${ARI_APP},${EXTEN})');
  });

  it('on a cluster node (NODE_NAME) refuses before answering when its core is down, for Kamailio to try another node', () => {
    const conf = render({ ARI_PASSWORD: 'x', NODE_NAME: 'node-a' }).conf('extensions.conf');
    const down = steps(conf, 'core-down');
    expect(down[0]).toBe('s,1,GotoIf($["node-a" = ""]?unavailable,s,1)');
    expect(down.at(-1)).toBe('n,Hangup(34)');
    expect(down.join('\n')).not.toContain('Answer');
    // Channel ids prefixed with the node's name: unique across the nodes sharing one database.
    const r = render({ ARI_PASSWORD: 'x', NODE_NAME: 'node-a' });
    expect(fs.readFileSync(path.join(r.dir, 'asterisk.conf'), 'utf8')).toMatch(/^systemname = node-a$/m);
    expect(render({ ARI_PASSWORD: 'x', NODE_NAME: 'node a' }).status).toBe(2);
  });

  it('follows ARI_APP when the operator changes it', () => {
    const r = render({ ARI_PASSWORD: 'x', ARI_APP: 'second-appliance' });
    expect(steps(r.conf('extensions.conf'), 'inbound')).toContain('n,Stasis(second-appliance,${EXTEN})');
  });

  it('answers politely when Stasis fails (core not connected), never dead air', () => {
    const conf = render({ ARI_PASSWORD: 'x' }).conf('extensions.conf');
    const inbound = steps(conf, 'inbound');
    const stasisAt = inbound.findIndex((s) => s.includes('Stasis('));
    expect(inbound[stasisAt + 1]).toMatch(/GotoIf\(\$\["\$\{STASISSTATUS\}" = "FAILED"\]\?core-down,s,1\)/);
    // One box (no NODE_NAME): the core being down leads to the fallback message.
    expect(steps(conf, 'core-down')[0]).toBe('s,1,GotoIf($["" = ""]?unavailable,s,1)');
    const fallback = steps(conf, 'unavailable').join('\n');
    expect(fallback).toMatch(/Answer\(\)[\s\S]*Playback\(appliance-unavailable\)[\s\S]*Hangup/);
    // The prompt it plays is made in the Asterisk image, by the script the image runs into sounds/en.
    expect(fs.readFileSync(path.join(ASTERISK_DIR, 'Dockerfile'), 'utf8')).toMatch(/sounds\.sh \/out\/var\/lib\/asterisk\/sounds\/en/);
    expect(fs.readFileSync(path.join(ASTERISK_DIR, 'sounds.sh'), 'utf8')).toMatch(/^speak appliance-unavailable /m);
  });

  it('routes every trunk context to the inbound DIDs', () => {
    const r = render(ALL_TRUNKS);
    const pjsip = r.conf('pjsip.conf');
    const ext = r.conf('extensions.conf');
    const contexts = new Set(
      ['uk-did', 'registration', 'twilio'].map((t) => last(findSections(pjsip, t, 'endpoint')[0]!, 'context')!),
    );
    expect([...contexts].sort()).toEqual(['from-trunk', 'from-twilio']);
    for (const c of contexts) expect(all(findSections(ext, c)[0]!, 'include')).toEqual(['inbound']);
  });
});

describe('http.conf', () => {
  const http = findSections(templateConf('http.conf'), 'general')[0]!;
  it('serves ARI on 8088 with no prefix (ARI_URL is the bare http://asterisk:8088 the docs give)', () => {
    expect(last(http, 'enabled')).toBe('yes');
    expect(last(http, 'bindport')).toBe('8088');
    expect(http.entries.map((e) => e.key)).not.toContain('prefix');
  });
});

describe('ari.conf', () => {
  it('takes the user and password from the environment, not from literals', () => {
    const template = templateConf('ari.conf');
    const users = template.sections.filter((s) => last(s, 'type') === 'user');
    expect(users.map((u) => u.name)).toEqual(['${ARI_USERNAME}']);
    expect(last(users[0]!, 'password')).toBe('${ARI_PASSWORD}');
    expect(last(users[0]!, 'read_only')).toBe('no');
    expect(last(findSections(template, 'general')[0]!, 'enabled')).toBe('yes');

    const r = render({ ARI_USERNAME: 'ops', ARI_PASSWORD: 'long-random-secret' });
    const [user] = findSections(r.conf('ari.conf'), 'ops', 'user');
    expect(last(user!, 'password')).toBe('long-random-secret');
  });

  it('defaults the user name to the core’s', () => {
    const r = render({ ARI_PASSWORD: 'x' });
    expect(findSections(r.conf('ari.conf'), coreDefaults.ari.username, 'user')).toHaveLength(1);
  });

  it('refuses to start without ARI_PASSWORD, saying what to do', () => {
    const r = render({});
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ARI_PASSWORD is not set: put a long random password in \.env/);
  });

  it('refuses a value that would change the config (";" starts a comment)', () => {
    const r = render({ ARI_PASSWORD: 'abc;def' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ARI_PASSWORD must not contain/);
  });

  it('has no literal password anywhere in the templates', () => {
    const etc = path.join(ASTERISK_DIR, 'etc');
    const files = fs.readdirSync(etc, { recursive: true }).map(String).filter((f) => f.endsWith('.conf'));
    for (const f of files) {
      const conf = parseAsteriskConf(fs.readFileSync(path.join(etc, f), 'utf8'));
      for (const s of conf.sections) for (const v of all(s, 'password')) expect(v, `${f} [${s.name}]`).toMatch(/^\$\{[A-Z_]+\}$/);
    }
  });
});

describe('pjsip.conf', () => {
  const r = render(ALL_TRUNKS);
  const pjsip = r.conf('pjsip.conf');

  it('loads the trunks named in SIP_TRUNKS and only those', () => {
    expect(r.status, r.stderr).toBe(0);
    const only = render({ ARI_PASSWORD: 'x', SIP_TRUNKS: 'twilio' }).conf('pjsip.conf');
    expect(findSections(only, 'twilio', 'endpoint')).toHaveLength(1);
    expect(findSections(only, 'registration', 'endpoint')).toHaveLength(0);
    const bad = render({ ARI_PASSWORD: 'x', SIP_TRUNKS: 'sipgate' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/choose from: uk-did, registration, twilio/);
  });

  it('opens TLS on 5061 only with a certificate and key, and SIP_SRTP=required makes every trunk demand SDES', () => {
    expect(findSections(pjsip, 'transport-tls', 'transport')).toHaveLength(0);
    const [plain] = findSections(pjsip, 'uk-did', 'endpoint');
    expect(last(plain!, 'media_encryption')).toBe('no');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sip-tls-files-'));
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    fs.writeFileSync(cert, 'x');
    fs.writeFileSync(key, 'x');
    try {
      const tls = render({ ...ALL_TRUNKS, SIP_TLS_CERT: cert, SIP_TLS_KEY: key, SIP_SRTP: 'required' });
      expect(tls.status, tls.stderr).toBe(0);
      const [transport] = findSections(tls.conf('pjsip.conf'), 'transport-tls', 'transport');
      expect({ protocol: last(transport!, 'protocol'), bind: last(transport!, 'bind'), cert: last(transport!, 'cert_file'), key: last(transport!, 'priv_key_file') }).toEqual({
        protocol: 'tls',
        bind: '0.0.0.0:5061',
        cert,
        key,
      });
      for (const trunk of ['uk-did', 'registration', 'twilio']) {
        const [endpoint] = findSections(tls.conf('pjsip.conf'), trunk, 'endpoint');
        expect([last(endpoint!, 'media_encryption'), last(endpoint!, 'media_encryption_optimistic')], trunk).toEqual(['sdes', 'no']);
      }
      const noKey = render({ ARI_PASSWORD: 'x', SIP_TLS_CERT: cert });
      expect(noKey.status).toBe(2);
      expect(noKey.stderr).toMatch(/SIP_TLS_CERT and SIP_TLS_KEY go together/);
      const missing = render({ ARI_PASSWORD: 'x', SIP_TLS_CERT: path.join(dir, 'none.pem'), SIP_TLS_KEY: key });
      expect(missing.stderr).toMatch(/SIP_TLS_CERT=.*none\.pem is not a readable file/);
      const srtpInClear = render({ ARI_PASSWORD: 'x', SIP_SRTP: 'required' });
      expect(srtpInClear.status).toBe(2);
      expect(srtpInClear.stderr).toMatch(/SIP_SRTP=required needs the TLS transport/);
      expect(render({ ARI_PASSWORD: 'x', SIP_SRTP: 'yes' }).stderr).toMatch(/SIP_SRTP must be no or required/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('configures Twilio Elastic SIP Trunking as Twilio documents', () => {
    const [endpoint] = findSections(pjsip, 'twilio', 'endpoint');
    expect(endpoint).toBeDefined();
    for (const [k, v] of Object.entries({
      context: 'from-twilio',
      direct_media: 'no',
      rtp_symmetric: 'yes',
      force_rport: 'yes',
      rewrite_contact: 'yes',
      dtmf_mode: 'rfc4733',
    })) {
      expect(last(endpoint!, k), k).toBe(v);
    }
    expect(all(endpoint!, 'disallow')).toContain('all');
    expect(all(endpoint!, 'allow').at(-1)).toBe('alaw,ulaw');
    const [identify] = findSections(pjsip, 'twilio', 'identify');
    expect(last(identify!, 'endpoint')).toBe('twilio');
    expect(all(identify!, 'match').length).toBeGreaterThan(0);
    for (const m of all(identify!, 'match')) expect(m).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    expect(last(findSections(pjsip, 'twilio', 'aor')[0]!, 'contact')).toBe('sip:acme.pstn.twilio.com');
  });

  it('registers the generic trunk with line=yes bound to its endpoint, credentials from .env', () => {
    const [reg] = findSections(pjsip, 'registration', 'registration');
    expect(last(reg!, 'line')).toBe('yes');
    expect(last(reg!, 'endpoint')).toBe('registration');
    expect(findSections(pjsip, 'registration', 'endpoint')).toHaveLength(1);
    expect(last(reg!, 'server_uri')).toBe('sip:sip.voip.example.co.uk');
    const [auth] = findSections(pjsip, 'registration-auth', 'auth');
    expect(last(auth!, 'password')).toBe('reg-secret-456');
    expect(last(auth!, 'username')).toBe('442079460000');
  });

  it('identifies the UK DID provider by the addresses the operator gives', () => {
    const [identify] = findSections(pjsip, 'uk-did', 'identify');
    expect(all(identify!, 'match')).toEqual(['198.51.100.0/28']);
    const [endpoint] = findSections(pjsip, 'uk-did', 'endpoint');
    expect(last(endpoint!, 'direct_media')).toBe('no');
  });

  it('puts the public address in SDP and Contact behind NAT', () => {
    const [udp] = findSections(pjsip, 'transport-udp', 'transport');
    expect(last(udp!, 'external_media_address')).toBe('203.0.113.10');
    expect(last(udp!, 'external_signaling_address')).toBe('203.0.113.10');
    expect(all(udp!, 'local_net')).toContain('192.168.0.0/16');
  });

  it('uses the RTP range that docker-compose.ports.yml publishes', () => {
    const rtp = findSections(render({ ARI_PASSWORD: 'x' }).conf('rtp.conf'), 'general')[0]!;
    const compose = fs.readFileSync(path.join(ASTERISK_DIR, '..', '..', 'docker-compose.ports.yml'), 'utf8');
    const range = `${last(rtp, 'rtpstart')}-${last(rtp, 'rtpend')}`;
    expect(compose).toContain(`"\${RTP_PORTS:-${range}}:\${RTP_PORTS:-${range}}/udp"`);
  });

  it('moves the RTP range with RTP_PORTS (a second node on one host), refusing what is not first-last', () => {
    const rtp = findSections(render({ ARI_PASSWORD: 'x', RTP_PORTS: '10200-10399' }).conf('rtp.conf'), 'general')[0]!;
    expect([last(rtp, 'rtpstart'), last(rtp, 'rtpend')]).toEqual(['10200', '10399']);
    for (const bad of ['10200', '10399-10200', '10200-', 'a-b', '1-2-3']) {
      const r = render({ ARI_PASSWORD: 'x', RTP_PORTS: bad });
      expect(r.status, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/RTP_PORTS must be first-last/);
    }
  });

  it('never lets maxcalls exceed what the RTP range carries: past the range a caller gets 488, past maxcalls 503', () => {
    const maxcalls = (env: Record<string, string>) => last(findSections(render({ ARI_PASSWORD: 'x', ...env }).conf('asterisk.conf'), 'options')[0]!, 'maxcalls');
    // Unset: a quarter of the ports (each caller's pair and a second stream for an agent or a transfer).
    expect(maxcalls({})).toBe('50');
    expect(maxcalls({ RTP_PORTS: '10000-10599' })).toBe('150');
    expect(maxcalls({ PBX_MAX_CALLS: '40' })).toBe('40');
    // Within the range's pairs but past a quarter: rendered, with a warning naming the range to widen to.
    const tight = render({ ARI_PASSWORD: 'x', PBX_MAX_CALLS: '80' });
    expect(last(findSections(tight.conf('asterisk.conf'), 'options')[0]!, 'maxcalls')).toBe('80');
    expect(tight.stderr).toMatch(/PBX_MAX_CALLS=80 leaves RTP_PORTS=10000-10199 20 pairs for agent calls and transfers.*320 ports/);
    // More calls than the range has pairs: refused at start, saying what to change.
    const over = render({ ARI_PASSWORD: 'x', PBX_MAX_CALLS: '142' });
    expect(over.status).toBe(2);
    expect(over.stderr).toMatch(/PBX_MAX_CALLS=142 is more calls than RTP_PORTS=10000-10199 carries \(100, two ports a call\): widen RTP_PORTS to 568 ports/);
    expect(render({ ARI_PASSWORD: 'x', RTP_PORTS: '10000-10002' }).stderr).toMatch(/holds no call: give it at least 4 ports/);
  });

  it('names SIP_MEDIA_ADDRESS in every trunk’s SDP when set (a cluster node behind NAT), nothing when not', () => {
    for (const trunk of ['uk-did', 'registration', 'twilio']) {
      const [withAddress] = findSections(render({ ...ALL_TRUNKS, SIP_MEDIA_ADDRESS: '203.0.113.20' }).conf('pjsip.conf'), trunk, 'endpoint');
      expect(last(withAddress!, 'media_address'), trunk).toBe('203.0.113.20');
      const [without] = findSections(pjsip, trunk, 'endpoint');
      expect(last(without!, 'media_address') ?? '', trunk).toBe('');
    }
  });
});

describe('modules', () => {
  const built = fs
    .readFileSync(path.join(ASTERISK_DIR, 'menuselect.txt'), 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
  const modules = findSections(templateConf('modules.conf'), 'modules')[0]!;
  const loaded = all(modules, 'load').map((m) => m.replace(/\.so$/, ''));

  it('loads exactly the modules the image builds, and nothing else', () => {
    expect(last(modules, 'autoload')).toBe('no');
    expect([...loaded].sort()).toEqual([...built].sort());
    for (const m of all(modules, 'noload')) expect(loaded).not.toContain(m.replace(/\.so$/, ''));
  });

  it('includes what the call flows need', () => {
    for (const m of [
      'chan_pjsip',
      'res_ari',
      'res_ari_channels',
      'res_ari_recordings',
      'res_ari_playbacks',
      'res_ari_events',
      'res_stasis',
      'res_stasis_recording',
      'res_stasis_playback',
      'res_http_websocket',
      'app_stasis',
      'func_talkdetect',
      'format_wav',
      'codec_alaw',
      'codec_ulaw',
      'res_rtp_asterisk',
      'pbx_config',
      'res_pjsip_outbound_registration',
      'res_pjsip_endpoint_identifier_ip',
    ]) {
      expect(built, m).toContain(m);
    }
  });

  it('builds Asterisk 20 from a checksummed tarball with only those modules', () => {
    const dockerfile = fs.readFileSync(path.join(ASTERISK_DIR, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/ARG ASTERISK_VERSION=20\.\d+\.\d+/);
    expect(dockerfile).toMatch(/sha256sum -c/);
    expect(dockerfile).toMatch(/test -n "\$\{ASTERISK_SHA256\}"/);
    expect(dockerfile).toContain('--disable-category MENUSELECT_RES');
    expect(dockerfile).toContain('/tmp/menuselect.txt');
  });
});

describe('the console’s test calls (issue 28)', () => {
  it('every per-call endpoint the core pushes over ARI has the settings of pjsip.conf’s [webrtc-test-call] template', async () => {
    const { CALL_MY_LINE_ENDPOINT } = await import('../../pbx/call-my-line/lines.js');
    const template = templateConf('pjsip.conf').sections.find((s) => s.name === 'webrtc-test-call' && s.template)!;
    const settings = Object.fromEntries(template.entries.filter((e) => e.key !== 'type').map((e) => [e.key, e.value]));
    expect(settings).toMatchObject({ webrtc: 'yes', bundle: 'yes', dtls_auto_generate_cert: 'yes', allow: 'ulaw,alaw', transport: 'transport-ws' });
    expect(CALL_MY_LINE_ENDPOINT).toEqual(settings);
  });

  it('has a WebSocket transport, and its dialplan reaches Stasis only for the endpoint’s own number', () => {
    const r = render({ ARI_PASSWORD: 'x' });
    const ws = findSections(r.conf('pjsip.conf'), 'transport-ws')[0]!;
    expect(last(ws, 'protocol')).toBe('ws');
    const dialplan = steps(r.conf('extensions.conf'), 'test-call');
    // The caller's text (${EXTEN}) never inside an expression or an argument list (issue 39, M2).
    expect(dialplan[0]).toContain('Set(TEST_CALL_NUMBER=${FILTER(+0123456789,${EXTEN})})');
    for (const step of dialplan.slice(1)) expect(step.replace(/\$\{LEN\(\$\{EXTEN\}\)\}/g, '')).not.toContain('${EXTEN}');
    expect(dialplan).toContain('n(owner),Stasis(call-answering,${TEST_CALL_NUMBER},test-call)');
    expect(steps(r.conf('extensions.conf'), 'test-call-refused')).toContain('n,Hangup(21)');
    // The WebSocket transport's port is the HTTP server's.
    expect(last(findSections(r.conf('extensions.conf'), 'globals')[0]!, 'TEST_CALL_WS_PORT')).toBe(last(findSections(r.conf('http.conf'), 'general')[0]!, 'bindport'));
  });
});
