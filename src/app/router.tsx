import { createBrowserRouter } from 'react-router';
import { onUnauthorized } from '../api/unauthorized.ts';
import { Layout } from './Layout.tsx';
import { RouteError } from './RouteError.tsx';
import { NotFound } from './NotFound.tsx';
import { PageLoading } from './PageLoading.tsx';

// Each page is its own chunk: the first page loads only the shell and itself.
export const router = createBrowserRouter([
  {
    path: '/',
    Component: Layout,
    ErrorBoundary: RouteError,
    HydrateFallback: PageLoading,
    children: [
      {
        index: true,
        lazy: () => import('../features/overview/OverviewPage.tsx').then((m) => ({ Component: m.OverviewPage })),
      },
      {
        path: 'settings',
        lazy: () => import('../features/settings/SettingsPage.tsx').then((m) => ({ Component: m.SettingsPage })),
      },
      {
        path: 'writer',
        lazy: () => import('../features/writer/WriterPage.tsx').then((m) => ({ Component: m.WriterPage })),
      },
      {
        path: 'sessions',
        lazy: () => import('../features/sessions/SessionsPage.tsx').then((m) => ({ Component: m.SessionsPage })),
      },
      {
        path: 'sessions/:id',
        lazy: () => import('../features/sessions/SessionPage.tsx').then((m) => ({ Component: m.SessionPage })),
      },
      {
        path: 'profiles',
        lazy: () => import('../features/profiles/ProfilesPage.tsx').then((m) => ({ Component: m.ProfilesPage })),
      },
      {
        path: 'profiles/:name',
        lazy: () => import('../features/profiles/ProfilePage.tsx').then((m) => ({ Component: m.ProfilePage })),
      },
      {
        path: 'workflows',
        lazy: () => import('../features/workflows/WorkflowsPage.tsx').then((m) => ({ Component: m.WorkflowsPage })),
      },
      {
        path: 'workflows/new',
        lazy: () =>
          import('../features/workflows/WorkflowEditPage.tsx').then((m) => ({ Component: m.WorkflowEditPage })),
      },
      {
        path: 'workflows/:id',
        lazy: () =>
          import('../features/workflows/WorkflowEditPage.tsx').then((m) => ({ Component: m.WorkflowEditPage })),
      },
      {
        path: 'agent',
        lazy: () => import('../features/agent/AgentStartPage.tsx').then((m) => ({ Component: m.AgentStartPage })),
      },
      {
        path: 'agent/:sessionId',
        lazy: () => import('../features/agent/AgentSessionPage.tsx').then((m) => ({ Component: m.AgentSessionPage })),
      },
      { path: 'run', lazy: () => import('../features/runs/RunPage.tsx').then((m) => ({ Component: m.RunPage })) },
      { path: 'runs', lazy: () => import('../features/runs/RunsPage.tsx').then((m) => ({ Component: m.RunsPage })) },
      {
        path: 'cli-auth/:ticketId',
        lazy: () => import('../features/cliAuth/CliAuthPage.tsx').then((m) => ({ Component: m.CliAuthPage })),
      },
      { path: 'docs', lazy: () => import('../features/docs/DocsPage.tsx').then((m) => ({ Component: m.DocsPage })) },
      {
        path: 'runs/:sessionId',
        lazy: () => import('../features/runs/RunProgressPage.tsx').then((m) => ({ Component: m.RunProgressPage })),
      },
      { path: '*', Component: NotFound },
    ],
  },
]);

// A 401 anywhere: go to Settings, remembering where the person was.
onUnauthorized(() => {
  const { pathname, search } = router.state.location;
  if (pathname === '/settings') return;
  void router.navigate(`/settings?from=${encodeURIComponent(pathname + search)}&reason=unauthorized`);
});
