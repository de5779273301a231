import { useEffect } from 'react';
import { NavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { ThemeSelect } from './ThemeSelect.tsx';

const NAV = [
  { to: '/', label: 'Overview' },
  { to: '/writer', label: 'Writer' },
  { to: '/agent', label: 'Agent' },
  { to: '/sessions', label: 'Sessions' },
  { to: '/profiles', label: 'Profiles' },
  { to: '/workflows', label: 'Workflows' },
  { to: '/run', label: 'Run' },
  { to: '/runs', label: 'Runs' },
  { to: '/docs', label: 'API docs' },
  { to: '/settings', label: 'Settings' },
] as const;

export function Layout() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  // Each page has its own title, so history, tabs and screen readers tell pages apart.
  useEffect(() => {
    const section = NAV.find((n) => pathname === n.to || pathname.startsWith(`${n.to}/`));
    document.title = section ? `${section.label} · Browserdesk` : 'Browserdesk';
  }, [pathname]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" end className="brand">
          Browserdesk
        </NavLink>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === '/'}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <ThemeSelect />
      </header>
      {navigation.state === 'loading' && (
        <p className="nav-progress" role="status">
          Loading the page…
        </p>
      )}
      <main id="main" className="page" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
