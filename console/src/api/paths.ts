// Server paths needed where the API client cannot come (the service worker's bundle carries no
// React Query and no toasts): plain functions of this folder, so pages and the worker share them.

/** "Mark called back" (core/calls/routes.ts): the console's button and an alert's Mark done. */
export const calledBackPath = (callId: number) => `/api/call-logs/${callId}/called-back`;

/** The Live page's stream of calls in progress (core/live/routes.ts, Server-Sent Events). */
export const LIVE_EVENTS_PATH = '/api/live/events';
