// The first screen after login: its chunks are fetched as soon as the login dialog opens (by the
// time the password is typed they are in), and its data request leaves with the navigation.
import type { QueryClient } from '@tanstack/react-query';
import { callLogsQuery } from '../api/queries';
import { preloadable } from './preloadable';

export const DashboardLayout = preloadable(() => import('../layout/DashboardLayout'));
export const CallLogs = preloadable(() => import('../pages/customer/CallLogs'));

export function preloadDashboard(): void {
  DashboardLayout.preload();
  CallLogs.preload();
}

/** Right after login: the Call Logs request leaves at once instead of after the screen has loaded. */
export function prefetchFirstScreen(qc: QueryClient): void {
  void qc.prefetchInfiniteQuery(callLogsQuery);
}
