import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config/config.js';
import { engineFingerprint } from '../../core/self-test/fingerprint.js';
import { engineIdentity } from '../../core/self-test/identity.js';
import { startPiperDouble, type PiperDouble } from '../doubles/piper/server.js';

// The self-test runs again when the voices change: with the Piper service (PIPER_URL) they are
// the ones the service lists, so a rebuild that adds a voice changes the fingerprint.
describe('the self-test fingerprint with the Piper service', () => {
  let piper: PiperDouble | undefined;
  afterEach(async () => await piper?.close());

  it('names the service and its voices; a voice added to the service changes the fingerprint', async () => {
    piper = await startPiperDouble(['en_GB-jenny_dioco-medium', 'en_GB-alan-medium']);
    const config = loadConfig({ DATA_DIR: '/tmp/unused-self-test-identity', PIPER_URL: piper.url });
    const before = await engineIdentity(config, 'piper');
    expect(before.ttsLocation).toBe(piper.url);
    expect(before.voices).toEqual(['en_GB-alan-medium', 'en_GB-jenny_dioco-medium']);

    piper.voices.push('pl_PL-gosia-medium');
    const after = await engineIdentity(config, 'piper');
    expect(after.voices).toContain('pl_PL-gosia-medium');
    expect(engineFingerprint(after)).not.toBe(engineFingerprint(before));
  });
});
