// "Call my line" (issue 28): credentials for one browser call to the owner's own number.
import type { ApiCallMyLineCredentials } from '../../../contract/schemas/call-my-line';
import { apiRequest } from './client';

// The route keeps its first name: the core serves POST /api/test-call (core/call-my-line/routes.ts).
export const requestCallMyLine = () => apiRequest<ApiCallMyLineCredentials>('POST', '/api/test-call');

/** The proxy's SIP WebSocket on this page's own origin: wss: when the console is served over https. */
export function callMyLineSocketUrl(wsPath: string): string {
  return `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${wsPath}`;
}
