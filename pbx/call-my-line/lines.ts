import type { CallMyLineEndpoint, CallMyLineEndpoints } from '../../core/ports/call-my-line.js';
import { createDynamicEndpoints } from '../browser-lines/dynamic-endpoint.js';

/**
 * Why per-call endpoints over ARI's dynamic configuration (PUT /asterisk/config/dynamic/
 * res_pjsip/...), not one shared endpoint: a browser's credentials are then Asterisk's own
 * digest credentials for one call, valid only while the core keeps them, and the number the
 * endpoint may ring is part of the endpoint (set_var TEST_CALL_DID, which extensions.conf
 * [test-call] compares with the dialled number before anything answers, and only for a call
 * that came over the WebSocket transport). So even a browser that gets past the proxy's
 * checks cannot ring another owner's number, an extension or the trunk, and the
 * credentials ring nothing over UDP or TCP 5060: Asterisk refuses it, as it would a phone
 * with the wrong account. (The core checks the number again at Stasis: admit.ts.)
 *
 * The settings are those of pjsip.conf's [webrtc-test-call] template (ARI cannot inherit a
 * template; test/deploy checks the two agree). The names in Asterisk's configuration (context
 * test-call, TEST_CALL_DID) stay as installed boxes have them in their own etc/ files.
 */
export const CALL_MY_LINE_ENDPOINT: Readonly<Record<string, string>> = {
  transport: 'transport-ws',
  identify_by: 'username',
  context: 'test-call',
  webrtc: 'yes',
  bundle: 'yes',
  dtls_auto_generate_cert: 'yes',
  disallow: 'all',
  allow: 'ulaw,alaw',
  direct_media: 'no',
  rtp_symmetric: 'yes',
  force_rport: 'yes',
  rewrite_contact: 'yes',
  dtmf_mode: 'rfc4733',
  rtp_timeout: '30',
};

export function createCallMyLineEndpoints(ari: { url: string; username: string; password: string }): CallMyLineEndpoints {
  return createDynamicEndpoints<CallMyLineEndpoint>(ari, {
    settings: CALL_MY_LINE_ENDPOINT,
    perLine: (line) => ({
      // The owner's own number as the caller's: call handling sees the owner ringing themselves.
      callerid: `"Test call" <${line.did}>`,
      set_var: `TEST_CALL_DID=${line.did}`,
    }),
  });
}
