// Sign-in, sign-up and password calls (SPEC.md §7, /api/auth).
import type { ApiUser, SignupRequest } from '../../../contract/api';
import { apiRequest } from './client';

export const login = (email: string, password: string) => apiRequest<{ user: ApiUser }>('POST', '/api/auth/login', { email, password });

export const signup = (body: SignupRequest) => apiRequest<{ user: ApiUser }>('POST', '/api/auth/signup', body);

export const forgotPassword = (email: string) => apiRequest('POST', '/api/auth/forgot-password', { email });

export const resetPassword = (body: { token: string | undefined; newPassword: string; confirmPassword: string }) =>
  apiRequest<{ email?: string }>('POST', '/api/auth/reset-password', body);

export const changePassword = (currentPassword: string, newPassword: string) =>
  apiRequest('POST', '/api/auth/change-password', { currentPassword, newPassword });
