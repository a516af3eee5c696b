import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('starts on embedded defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.numbers.provider).toBe('static');
    expect(c.numbers.monthlyCostPence).toBe(100);
    expect(c.ari.url).toBeUndefined();
    expect(c.mail.smtpUrl).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ NUMBER_PROVIDER: 'vonage' }, 'NUMBER_PROVIDER'],
    [{ NUMBER_PROVIDER: 'twilio' }, 'NUMBER_PROVIDER'],
    [{ STATIC_NUMBERS: '+447700900001,07700900002' }, 'STATIC_NUMBERS'],
    [{ NUMBER_MONTHLY_COST: '£1' }, 'NUMBER_MONTHLY_COST'],
    [{ TWILIO_ACCOUNT_SID: 'AC123' }, 'TWILIO_AUTH_TOKEN'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_EMAIL: 'nobody' }, 'ADMIN_EMAIL'],
    [{ TTS_ENGINE: 'festival' }, 'TTS_ENGINE'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'proxy.local' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '1' }, 'TRUST_PROXY'],
    [{ CALENDAR_ALLOWED_PRIVATE_HOSTS: 'nas.lan:5232' }, 'CALENDAR_ALLOWED_PRIVATE_HOSTS'],
    [{ CALENDAR_ALLOWED_PRIVATE_HOSTS: '10.0.0.0/8' }, 'CALENDAR_ALLOWED_PRIVATE_HOSTS'],
    [{ CALENDAR_ALLOWED_PRIVATE_HOSTS: 'https://nas.lan/' }, 'CALENDAR_ALLOWED_PRIVATE_HOSTS'],
  ])('stops with a message naming the bad variable (%o)', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message).toContain(variable);
  });

  it('dials beyond UK mobiles and landlines only the E.164 prefixes OUTBOUND_ALLOW lists, up to OUTBOUND_DAILY_MINUTES a day', () => {
    expect(loadConfig({ OUTBOUND_ALLOW: '+44800, +3531', OUTBOUND_DAILY_MINUTES: '30' }).outbound).toEqual({ allow: ['+44800', '+3531'], dailyMinutes: 30, answeredMaxSeconds: 1800, presents: 'called' });
    expect(() => loadConfig({ OUTBOUND_ALLOW: '0800' })).toThrow(/OUTBOUND_ALLOW must list E.164 prefixes/);
    expect(() => loadConfig({ OUTBOUND_DAILY_MINUTES: 'lots' })).toThrow(/OUTBOUND_DAILY_MINUTES must be a whole number/);
  });

  it('takes the set-up rate admission limits, a rate as a decimal a second, both off unless set (issue 47)', () => {
    expect(loadConfig({}).admission).toMatchObject({ maxSetupsPerSecond: 0, lateAnswerMs: 0 });
    expect(loadConfig({ ADMISSION_MAX_SETUPS_PER_SECOND: '0.5', ADMISSION_LATE_ANSWER_MS: '1000' }).admission).toMatchObject({ maxSetupsPerSecond: 0.5, lateAnswerMs: 1000 });
    for (const bad of ['fast', '-1', '1,5', '2000']) {
      expect(() => loadConfig({ ADMISSION_MAX_SETUPS_PER_SECOND: bad }), bad).toThrow(`ADMISSION_MAX_SETUPS_PER_SECOND must be a number of calls a second from 0 to 1000, e.g. 8 or 0.5 (got "${bad}")`);
    }
  });

  it('gives calls in progress STOP_DRAIN_SECONDS on SIGTERM (25 s unless set)', () => {
    expect(loadConfig({}).stop.drainMs).toBe(25_000);
    expect(loadConfig({ STOP_DRAIN_SECONDS: '2' }).stop.drainMs).toBe(2000);
    for (const bad of ['0', '601', 'soon']) {
      expect(() => loadConfig({ STOP_DRAIN_SECONDS: bad }), bad).toThrow(`STOP_DRAIN_SECONDS must be a whole number from 1 to 600 (got "${bad}")`);
    }
  });

  it('lets a team have TEAM_MAX_STAFF people besides the owner (20 unless set)', () => {
    expect(loadConfig({}).team.maxStaff).toBe(20);
    expect(loadConfig({ TEAM_MAX_STAFF: '3' }).team.maxStaff).toBe(3);
    for (const bad of ['-1', '501', 'many']) {
      expect(() => loadConfig({ TEAM_MAX_STAFF: bad }), bad).toThrow(`TEAM_MAX_STAFF must be a whole number from 0 to 500 (got "${bad}")`);
    }
  });

  it('ends a put-through after PUT_THROUGH_MAX_SECONDS once answered (30 minutes unless set)', () => {
    expect(loadConfig({ PUT_THROUGH_MAX_SECONDS: '600' }).outbound.answeredMaxSeconds).toBe(600);
    for (const bad of ['0', '4', '14401', 'forever']) {
      expect(() => loadConfig({ PUT_THROUGH_MAX_SECONDS: bad }), bad).toThrow(`PUT_THROUGH_MAX_SECONDS must be a whole number from 5 to 14400 (got "${bad}")`);
    }
  });

  it('shows a person’s phone the appliance number unless OUTBOUND_PRESENT_CALLER says the caller’s', () => {
    expect(loadConfig({}).outbound.presents).toBe('called');
    expect(loadConfig({ OUTBOUND_PRESENT_CALLER: 'caller' }).outbound.presents).toBe('caller');
    expect(() => loadConfig({ OUTBOUND_PRESENT_CALLER: 'yes' })).toThrow('OUTBOUND_PRESENT_CALLER must be one of caller, called (got "yes")');
  });

  it('puts callers through on OUTBOUND_ENDPOINT only when it is a PJSIP dial string with the number placeholder', () => {
    const policy = { allow: [], dailyMinutes: 120, answeredMaxSeconds: 1800, presents: 'called' };
    expect(loadConfig({}).outbound).toEqual(policy);
    expect(loadConfig({ OUTBOUND_ENDPOINT: 'PJSIP/{number}@uk-did' }).outbound).toEqual({ endpoint: 'PJSIP/{number}@uk-did', ...policy });
    expect(loadConfig({ OUTBOUND_ENDPOINT: 'PJSIP/{national}@registration' }).outbound).toEqual({ endpoint: 'PJSIP/{national}@registration', ...policy });
    expect(() => loadConfig({ OUTBOUND_ENDPOINT: 'SIP/{number}@old' })).toThrow(/OUTBOUND_ENDPOINT must be a PJSIP dial string/);
    expect(() => loadConfig({ OUTBOUND_ENDPOINT: 'PJSIP/07911123456@uk-did' })).toThrow(/OUTBOUND_ENDPOINT must contain \{number\}/);
  });

  it('sends agent audio to the compose service `core` by default, and to AGENT_RTP_HOST when set', () => {
    expect(loadConfig({}).agentRtp).toEqual({ bind: '0.0.0.0', host: 'core' });
    expect(loadConfig({ AGENT_RTP_BIND: '127.0.0.1' }).agentRtp).toEqual({ bind: '127.0.0.1', host: undefined });
    expect(loadConfig({ AGENT_RTP_BIND: '10.0.0.5', AGENT_RTP_HOST: 'box.lan' }).agentRtp).toEqual({ bind: '10.0.0.5', host: 'box.lan' });
    expect(() => loadConfig({ AGENT_RTP_BIND: 'everywhere' })).toThrow(/AGENT_RTP_BIND/);
  });

  it('keeps money in pence and lists static DIDs', () => {
    const c = loadConfig({ NUMBER_MONTHLY_COST: '2.5', STATIC_NUMBERS: '+447700900001, +447700900002' });
    expect(c.numbers.monthlyCostPence).toBe(250);
    expect(c.numbers.staticNumbers).toEqual(['+447700900001', '+447700900002']);
  });

  it('trusts no proxy unless TRUST_PROXY names its addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '172.18.0.0/16, 10.0.0.5,loopback' }).trustProxy).toEqual(['172.18.0.0/16', '10.0.0.5', 'loopback']);
  });

  it('lets calendars reach no host inside the network unless CALENDAR_ALLOWED_PRIVATE_HOSTS names it', () => {
    expect(loadConfig({}).calendars.allowedPrivateHosts).toEqual([]);
    expect(loadConfig({ CALENDAR_ALLOWED_PRIVATE_HOSTS: ' NAS.lan., 192.168.1.20,[fd00::5]' }).calendars.allowedPrivateHosts).toEqual(['nas.lan', '192.168.1.20', 'fd00:0:0:0:0:0:0:5']);
  });

  it('reads engine pools: several comma-separated endpoints, each with the slots given once or per URL', () => {
    const one = loadConfig({});
    expect(one.ollama.endpoints).toEqual([{ url: 'http://127.0.0.1:11434', slots: 4 }]);
    expect(one.whisper.endpoints).toEqual([]);
    expect(one.tts.slots).toBe(2);
    const c = loadConfig({ OLLAMA_URL: 'http://gpu1:11434, http://gpu2:11434/', OLLAMA_SLOTS: '4,1', WHISPER_URL: 'http://w1:8080,http://w2:8080', WHISPER_SLOTS: '2', TTS_SLOTS: '3' });
    expect(c.ollama.endpoints).toEqual([
      { url: 'http://gpu1:11434', slots: 4 },
      { url: 'http://gpu2:11434', slots: 1 },
    ]);
    expect(c.whisper.endpoints).toEqual([
      { url: 'http://w1:8080', slots: 2 },
      { url: 'http://w2:8080', slots: 2 },
    ]);
    expect(c.tts.slots).toBe(3);
  });

  it.each([
    [{ OLLAMA_URL: 'http://a:1,ftp://b' }, 'OLLAMA_URL', /must be a URL/],
    [{ OLLAMA_URL: 'http://a:1,http://a:1' }, 'OLLAMA_URL', /same URL twice/],
    [{ OLLAMA_URL: 'http://a:1,http://b:1,http://c:1', OLLAMA_SLOTS: '4,1' }, 'OLLAMA_SLOTS', /one per OLLAMA_URL entry \(3\)/],
    [{ WHISPER_URL: 'http://w:1', WHISPER_SLOTS: '0' }, 'WHISPER_SLOTS', /whole number from 1 to 64/],
    [{ TTS_SLOTS: 'many' }, 'TTS_SLOTS', /whole number/],
  ])('refuses engine pool settings it cannot use: %o', (env, name, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads when a stalled agent turn hears the holding phrase and the voicemail offer', () => {
    expect(loadConfig({}).agentStall).toEqual({ holdMs: 1200, voicemailMs: 8000 });
    expect(loadConfig({ AGENT_HOLD_AFTER_MS: '1000', AGENT_VOICEMAIL_AFTER_MS: '6000' }).agentStall).toEqual({ holdMs: 1000, voicemailMs: 6000 });
  });

  it.each([
    [{ AGENT_HOLD_AFTER_MS: 'soon' }, 'AGENT_HOLD_AFTER_MS', /whole number from 100 to 60000/],
    [{ AGENT_VOICEMAIL_AFTER_MS: '500' }, 'AGENT_VOICEMAIL_AFTER_MS', /whole number from 1000/],
    [{ AGENT_HOLD_AFTER_MS: '3000', AGENT_VOICEMAIL_AFTER_MS: '2000' }, 'AGENT_VOICEMAIL_AFTER_MS', /longer than AGENT_HOLD_AFTER_MS \(3000\)/],
  ])('refuses stall bounds it cannot use: %o', (env, name, message) => {
    expect(() => loadConfig(env)).toThrow(name);
    expect(() => loadConfig(env)).toThrow(message);
  });

  // Issue 39: a refused URL was echoed with its password.
  const PW = 'Plant3d-Secret';
  it.each([
    ['SMTP_URL', { SMTP_URL: `smpt://mailer:${PW}@mail.example.co.uk:587` }, ':***@'],
    ['ARI_URL', { ARI_URL: `http://ari:${PW}@asterisk 8088` }, ':***@'],
    ['OLLAMA_URL', { OLLAMA_URL: `http://gpu:11434,htp://proxy:${PW}@gpu-b:11434` }, ':***@'],
    ['OLLAMA_URL', { OLLAMA_URL: `http://u:${PW}@gpu:11434,http://u:${PW}@gpu:11434` }, ':***@'],
    ['WHISPER_URL', { WHISPER_URL: `http://u:${PW}@whisper:80a80` }, ':***@'],
    ['TWILIO_API_BASE', { TWILIO_API_BASE: `ftp://user:${PW}@twilio.example` }, ':***@'],
    ['PUBLIC_URL', { PUBLIC_URL: `box://admin:${PW}@box.example.co.uk` }, ':***@'],
    ['TURN_URL', { TURN_URL: `stun:user:${PW}@box.example.co.uk:3478`, TURN_SECRET: 'x' }, ':***@'],
    ['DATABASE_URL', { DATABASE_URL: `mysql://user:${PW}@db/appliance` }, 'must be a PostgreSQL URL'],
  ])('a bad %s is named with its password masked', (name, env, shown) => {
    let message = '';
    try {
      loadConfig(env);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(`Invalid configuration: ${name}`);
    expect(message).not.toContain(PW);
    expect(message).toContain(shown);
  });
});
