import { lazy, Suspense } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import Landing from './pages/public/Landing';
import NotFound from './pages/NotFound';
import { CallLogs, DashboardLayout } from './session/dashboard-preload';
import { FullPageSpinner, RequireAdmin, RequireAuth, StaffLimits } from './session/guards';
import { RouteErrorBoundary } from './upgrade/RouteErrorBoundary';

// Everything behind the landing page is split off so the first visit stays small (DESIGN.md budget).
const ResetPassword = lazy(() => import('./pages/public/ResetPassword'));
const DepositReturn = lazy(() => import('./pages/public/DepositReturn'));
const Analytics = lazy(() => import('./pages/customer/Analytics'));
const NotificationSettings = lazy(() => import('./pages/notifications/NotificationSettings'));
const Questions = lazy(() => import('./pages/customer/Questions'));
const CallerTexts = lazy(() => import('./pages/caller-texts/CallerTexts'));
const Bookings = lazy(() => import('./pages/booking/Bookings'));
const LivePage = lazy(() => import('./pages/live/LivePage'));
const Settings = lazy(() => import('./pages/customer/Settings'));
const PhoneNumbers = lazy(() => import('./pages/customer/PhoneNumbers'));
const Account = lazy(() => import('./pages/customer/Account'));
const Team = lazy(() => import('./pages/team/Team'));
const AdminDashboard = lazy(() => import('./pages/admin/AdminDashboard'));
const Approvals = lazy(() => import('./pages/admin/Approvals'));
const Usage = lazy(() => import('./pages/admin/Usage'));
const Screening = lazy(() => import('./pages/admin/Screening'));
const ProviderSegment = lazy(() => import('./pages/admin/ProviderSegment'));

export default function App() {
  // Keyed by the first path segment: a failure clears when the visitor moves to another area,
  // while the dashboard shell (with its own per-page boundary) stays mounted between its pages.
  const area = useLocation().pathname.split('/')[1] ?? '';
  return (
    <RouteErrorBoundary key={area}>
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route path="/" element={<Landing />} />
          <Route path="/reset-password/:token?" element={<ResetPassword />} />
          <Route path="/deposit/thanks" element={<DepositReturn kind="thanks" />} />
          <Route path="/deposit/not-paid" element={<DepositReturn kind="notPaid" />} />
          <Route
            path="/dashboard"
            element={
              <RequireAuth>
                <StaffLimits>
                  <DashboardLayout />
                </StaffLimits>
              </RequireAuth>
            }
          >
            <Route index element={<CallLogs />} />
            <Route path="analytics" element={<Analytics />} />
            <Route path="notifications" element={<NotificationSettings />} />
            <Route path="questions" element={<Questions />} />
            <Route path="texts" element={<CallerTexts />} />
            <Route path="bookings" element={<Bookings />} />
            <Route path="live" element={<LivePage />} />
            <Route path="settings" element={<Settings />} />
            <Route path="phone-numbers" element={<PhoneNumbers />} />
            <Route path="account" element={<Account />} />
            <Route path="team" element={<Team />} />
            <Route element={<RequireAdmin />}>
              <Route path="admin" element={<AdminDashboard />} />
              <Route path="approvals" element={<Approvals />} />
              <Route path="api-usage" element={<Usage />} />
              <Route path="screening" element={<Screening />} />
            </Route>
            {/* /dashboard/{provider}-numbers: the provider comes from /api/meta, so the match happens at run time. */}
            <Route path=":segment" element={<ProviderSegment />} />
          </Route>
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
