// A new notification number or summary e-mail waiting for the code sent there (issue 24 item 4).
import type { ConfirmDestinationBody, ConfirmDestinationResponse, PendingDestinationsResponse } from '../../../contract/schemas/destinations';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';

/** Under the session's key: saving settings (which refreshes `me`) refreshes what is pending too. */
export const destinationsKey = [...keys.me, 'destinations'] as const;

export const getPendingDestinations = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<PendingDestinationsResponse>('/api/user/destinations', signal);

export const confirmDestination = (body: ConfirmDestinationBody) => apiRequest<ConfirmDestinationResponse>('POST', '/api/user/destinations/confirm', body);
