import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config/config.js';

const TWILIO = {
  NUMBER_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC' + '1'.repeat(32),
  TWILIO_AUTH_TOKEN: 'token',
  TWILIO_BUNDLE_SID: 'BU' + '2'.repeat(32),
  TWILIO_ADDRESS_SID: 'AD' + '3'.repeat(32),
  TWILIO_TRUNK_SID: 'TK' + '4'.repeat(32),
};

function variableNamed(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.variable;
    throw err;
  }
  return 'none';
}

describe('number provider configuration', () => {
  it('accepts a complete Twilio set-up and keeps its SIDs', () => {
    const cfg = loadConfig(TWILIO);
    expect(cfg.twilio).toMatchObject({ bundleSid: TWILIO.TWILIO_BUNDLE_SID, addressSid: TWILIO.TWILIO_ADDRESS_SID, trunkSid: TWILIO.TWILIO_TRUNK_SID });
    const { TWILIO_TRUNK_SID: _t, ...viaUrl } = TWILIO;
    expect(loadConfig({ ...viaUrl, TWILIO_VOICE_URL: 'https://pbx.example.co.uk/voice' }).twilio.voiceUrl).toBe('https://pbx.example.co.uk/voice');
  });

  it('names the missing or malformed variable', () => {
    const without = (name: keyof typeof TWILIO) => Object.fromEntries(Object.entries(TWILIO).filter(([k]) => k !== name));
    expect(variableNamed(without('TWILIO_BUNDLE_SID'))).toBe('TWILIO_BUNDLE_SID');
    expect(variableNamed(without('TWILIO_ADDRESS_SID'))).toBe('TWILIO_ADDRESS_SID');
    expect(variableNamed(without('TWILIO_TRUNK_SID'))).toBe('TWILIO_TRUNK_SID');
    expect(variableNamed({ ...TWILIO, TWILIO_TRUNK_SID: 'TK123' })).toBe('TWILIO_TRUNK_SID');
    expect(variableNamed({ ...TWILIO, TWILIO_BUNDLE_SID: 'AD' + '3'.repeat(32) })).toBe('TWILIO_BUNDLE_SID');
    expect(variableNamed({ ...TWILIO, TWILIO_VOICE_URL: 'not a url' })).toBe('TWILIO_VOICE_URL');
  });

  it('does not ask for them with static numbers', () => {
    expect(variableNamed({ NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '+447700900001' })).toBe('none');
  });
});
