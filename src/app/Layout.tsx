import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
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
  // On a narrow screen the navigation and theme fold behind one Menu button (a disclosure).
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const header = useRef<HTMLElement>(null);
  const closeMenu = () => setMenuOpen(false);
  const onHeaderKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !menuOpen) return;
    closeMenu();
    menuButton.current?.focus();
  };
  // A press anywhere outside the header folds the open menu away.
  useEffect(() => {
    if (!menuOpen) return;
    const outside = (e: PointerEvent) => {
      if (!header.current?.contains(e.target as Node)) closeMenu();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [menuOpen]);
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
      <header className="topbar" ref={header} onKeyDown={onHeaderKey}>
        <NavLink to="/" end className="brand" onClick={closeMenu}>
          Browserdesk
        </NavLink>
        <button
          ref={menuButton}
          type="button"
          className="menu-button secondary small"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <div id="main-menu" className="topbar-menu" data-open={menuOpen}>
          <nav aria-label="Main">
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.to === '/'} onClick={closeMenu}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <ThemeSelect />
        </div>
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
