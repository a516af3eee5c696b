/**
 * The console's address for one call: Call Logs with its Call Details dialog open. E-mails link
 * to it (PUBLIC_URL + this path) and the console opens the dialog from the query parameter.
 */
export const CALL_DETAILS_PARAM = 'call';

export function callDetailsPath(callId: number): string {
  return `/dashboard?${CALL_DETAILS_PARAM}=${callId}`;
}
