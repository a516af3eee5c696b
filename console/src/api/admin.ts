// Admin writes: sign-up approvals, a user's status, trial and deletion, and releasing a provider number.
import type { AccountStatus, ApiProviderNumber } from '../../../contract/api';
import { providerSid } from '../lib/numbers';
import { apiRequest } from './client';

export const approveSignup = (id: number) => apiRequest('POST', `/api/admin/approvals/${id}/approve`);

export const rejectSignup = (id: number) => apiRequest('POST', `/api/admin/approvals/${id}/reject`);

export const updateUser = (id: number, body: { accountStatus: AccountStatus } | { trialExpiresAt: string }) =>
  apiRequest('PATCH', `/api/admin/users/${id}`, body);

export const deleteUser = (id: number) => apiRequest('DELETE', `/api/admin/users/${id}`);

export const releaseNumber = (provider: string, n: ApiProviderNumber) =>
  apiRequest<{ message?: string }>('POST', `/api/admin/${encodeURIComponent(provider)}-numbers/${encodeURIComponent(providerSid(n, provider))}/release`, {
    phoneNumber: n.phoneNumber,
  });
