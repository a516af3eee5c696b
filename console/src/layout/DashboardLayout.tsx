import {
  BarChart3,
  Bell,
  CalendarDays,
  CheckCircle2,
  HelpCircle,
  Hash,
  LogOut,
  Menu,
  Moon,
  PanelLeftClose,
  PanelLeftOpen,
  Phone,
  PoundSterling,
  Server,
  Settings,
  ShieldCheck,
  Sun,
  User,
  type LucideIcon,
  MessageSquare,
  Users,
} from 'lucide-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useApprovals } from '../api/queries';
import { useLogout, useMeta, useSession } from '../api/session';
import { SkipLink, Spinner, cx } from '../components/ui';
import { useMediaQuery } from '../components/use-media-query';
import { useLiveCalls } from '../live/use-live-calls';
import { navItems, visibleGroups, type NavIcon } from './nav';
import { AccountBanner } from './AccountBanner';
import { LineBanner } from './LineBanner';
import { StaffBanner } from './StaffBanner';
import { useTheme } from './theme';
import { RouteErrorBoundary } from '../upgrade/RouteErrorBoundary';

const icons: Record<NavIcon, LucideIcon> = {
  phone: Phone,
  chart: BarChart3,
  help: HelpCircle,
  bell: Bell,
  hash: Hash,
  settings: Settings,
  user: User,
  shield: ShieldCheck,
  check: CheckCircle2,
  server: Server,
  pound: PoundSterling,
  message: MessageSquare,
  calendar: CalendarDays,
  users: Users,
};

const COLLAPSE_KEY = 'sidebar-collapsed';
const DESKTOP = '(min-width: 768px)';

export default function DashboardLayout() {
  const { user, isAdmin } = useSession();
  const meta = useMeta();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  const { theme, toggle } = useTheme();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSE_KEY) === '1');
  // The page the phone drawer was opened on: it is open only there, so following a link closes it.
  const [drawerPath, setDrawerPath] = useState<string | null>(null);
  const mobileOpen = drawerPath === location.pathname;
  const setMobileOpen = (open: boolean) => setDrawerPath(open ? location.pathname : null);

  const isDesktop = useMediaQuery(DESKTOP);

  // The phone drawer: Escape closes it and gives focus back to its toggle; opening moves focus into it.
  const toggleRef = useRef<HTMLButtonElement>(null);
  const navRef = useRef<HTMLElement>(null);
  const drawerOpen = mobileOpen && !isDesktop;
  useEffect(() => {
    if (!drawerOpen) return;
    navRef.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setDrawerPath(null);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen]);
  useEffect(() => localStorage.setItem(COLLAPSE_KEY, collapsed ? '1' : '0'), [collapsed]);

  const groups = visibleGroups(navItems(meta.data?.provider), user?.role);
  // Sign-ups waiting for an admin, on the Signup Approvals item (refreshed when one is approved or rejected).
  const approvals = useApprovals({ enabled: isAdmin });
  const pending = approvals.data?.users.length ?? 0;
  // Calls in progress, on the Live item: the same stream the Live page reads (one per tab); an admin has no calls.
  const liveCount = useLiveCalls(Boolean(user) && !isAdmin).length;
  const productName = meta.data?.productName ?? '';

  const onToggleSidebar = () => {
    // Phones get a drawer; wider screens switch between wide and icon-only.
    if (isDesktop) setCollapsed((c) => !c);
    else setMobileOpen(!mobileOpen);
  };

  const onLogout = () =>
    logout.mutate(undefined, {
      onSettled: () => navigate('/', { replace: true }),
    });

  const iconOnly = collapsed && !mobileOpen;

  return (
    <div className="flex min-h-screen">
      <SkipLink />
      {mobileOpen && <div className="fixed inset-0 z-30 bg-slate-900/50 md:hidden" onClick={() => setMobileOpen(false)} aria-hidden />}
      <aside
        id="dashboard-sidebar"
        aria-label="Sidebar"
        // Off-screen on a phone until opened: keep it out of the tab order and the accessibility tree.
        inert={!isDesktop && !mobileOpen}
        aria-hidden={!isDesktop && !mobileOpen ? true : undefined}
        className={cx(
          'fixed inset-y-0 left-0 z-40 flex flex-col border-r border-slate-200 bg-white transition-all dark:border-slate-800 dark:bg-slate-900',
          mobileOpen ? 'w-64 translate-x-0' : '-translate-x-full md:translate-x-0',
          iconOnly ? 'md:w-16' : 'md:w-64',
        )}
      >
        <div className={cx('flex h-16 items-center gap-2 border-b border-slate-200 px-4 dark:border-slate-800', iconOnly && 'md:justify-center md:px-0')}>
          <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <Phone className="h-4 w-4" aria-hidden />
          </span>
          <span className={cx('truncate font-semibold', iconOnly && 'md:hidden')}>{productName}</span>
        </div>
        <nav ref={navRef} aria-label="Dashboard" className="flex-1 overflow-y-auto px-3 py-4">
          {groups.map((g) => (
            <div key={g.group} className="mb-5">
              <p className={cx('mb-1 px-3 text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400', iconOnly && 'md:sr-only')}>{g.group}</p>
              <ul className="grid gap-0.5">
                {g.items.map((item) => {
                  const Icon = icons[item.icon];
                  return (
                    <li key={item.to}>
                      <NavLink
                        to={item.to}
                        end
                        title={iconOnly ? item.label : undefined}
                        className={({ isActive }) =>
                          cx(
                            'relative flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                            iconOnly && 'md:justify-center md:px-0',
                            isActive
                              ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300'
                              : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100',
                          )
                        }
                      >
                        <Icon className="h-4 w-4 shrink-0" aria-hidden />
                        <span className={cx(iconOnly && 'md:sr-only')}>{item.label}</span>
                        {item.to === '/dashboard/approvals' && pending > 0 && (
                          <span
                            data-testid="pending-count"
                            className={cx(
                              'ml-auto rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100',
                              iconOnly && 'md:absolute md:right-1 md:top-0 md:px-1.5',
                            )}
                          >
                            {pending}
                            <span className="sr-only"> pending</span>
                          </span>
                        )}
                        {item.to === '/dashboard/live' && liveCount > 0 && (
                          <span
                            data-testid="live-count"
                            className={cx(
                              'ml-auto rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-900 dark:text-red-100',
                              iconOnly && 'md:absolute md:right-1 md:top-0 md:px-1.5',
                            )}
                          >
                            {liveCount}
                            <span className="sr-only"> in progress</span>
                          </span>
                        )}
                      </NavLink>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
        <div className="border-t border-slate-200 p-3 dark:border-slate-800">
          <div className={cx('mb-2 px-2', iconOnly && 'md:sr-only')}>
            <p className="truncate text-sm font-semibold" data-testid="sidebar-name">
              {user?.businessName || user?.email}
            </p>
            <p className="truncate text-xs text-slate-500 dark:text-slate-400">{user?.email}</p>
          </div>
          <button
            type="button"
            onClick={onLogout}
            disabled={logout.isPending}
            className={cx(
              'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100',
              iconOnly && 'md:justify-center md:px-0',
            )}
          >
            <LogOut className="h-4 w-4" aria-hidden />
            <span className={cx(iconOnly && 'md:sr-only')}>Logout</span>
          </button>
        </div>
      </aside>

      <div className={cx('flex min-w-0 flex-1 flex-col transition-all', iconOnly ? 'md:pl-16' : 'md:pl-64')}>
        <header className="sticky top-0 z-20 flex h-16 items-center justify-between gap-2 border-b border-slate-200 bg-white/80 px-4 backdrop-blur dark:border-slate-800 dark:bg-slate-900/80">
          <button
            type="button"
            ref={toggleRef}
            onClick={onToggleSidebar}
            aria-label="Toggle sidebar"
            aria-controls="dashboard-sidebar"
            // What the toggle controls differs: the drawer on a phone, wide versus icon-only above.
            aria-expanded={isDesktop ? !collapsed : mobileOpen}
            className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
          >
            <Menu className="h-5 w-5 md:hidden" aria-hidden />
            {collapsed ? <PanelLeftOpen className="hidden h-5 w-5 md:block" aria-hidden /> : <PanelLeftClose className="hidden h-5 w-5 md:block" aria-hidden />}
          </button>
          <button
            type="button"
            onClick={toggle}
            aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
            className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
          >
            {theme === 'dark' ? <Sun className="h-5 w-5" aria-hidden /> : <Moon className="h-5 w-5" aria-hidden />}
          </button>
        </header>
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 p-4 focus:outline-none sm:p-6 lg:p-8">
          <StaffBanner />
          <AccountBanner />
          <LineBanner />
          <RouteErrorBoundary key={location.pathname}>
            <Suspense fallback={<Spinner label="Loading..." />}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </main>
      </div>
    </div>
  );
}
