// "Call my line" (issue 28): credentials for one browser call to the owner's own number.
import type { ApiTestCallCredentials } from '../../../contract/schemas/test-call';
import { apiRequest } from './client';

export const requestTestCall = () => apiRequest<ApiTestCallCredentials>('POST', '/api/test-call');

/** The proxy's SIP WebSocket on this page's own origin: wss: when the console is served over https. */
export function testCallSocketUrl(wsPath: string): string {
  return `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${wsPath}`;
}
