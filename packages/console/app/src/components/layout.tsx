import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { hrefs, type Route } from '../router/parse-route';

interface LayoutProps {
  route: Route;
  signedIn: boolean;
  onSignOut(): void;
  children: ComponentChildren;
}

const SECTIONS: Array<{ label: string; href: string; matches: Array<Route['name']> }> = [
  { label: 'Runtimes', href: hrefs.runtimes(), matches: ['runtimes', 'lineage', 'diff', 'files'] },
  { label: 'Events', href: hrefs.events(), matches: ['events'] },
  { label: 'Fleet', href: hrefs.fleet(), matches: ['fleet'] },
];

/** The page frame: skip link, header with the main navigation, and the main landmark. */
export function Layout({ route, signedIn, onSignOut, children }: LayoutProps) {
  const mainRef = useRef<HTMLElement>(null);
  const routeKey = JSON.stringify(route);
  const firstRoute = useRef(true);

  // After a navigation, move focus to the new view's heading so keyboard and screen-reader users start there.
  useEffect(() => {
    if (firstRoute.current) {
      firstRoute.current = false;
      return;
    }
    const heading = mainRef.current?.querySelector('h1');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: false });
    }
  }, [routeKey]);

  return (
    <>
      <a class="skip-link" href="#main-content" onClick={(event) => {
        // The hash is the router's: focus the main landmark without navigating.
        event.preventDefault();
        mainRef.current?.focus();
      }}>
        Skip to main content
      </a>
      <header class="site-header">
        <span class="product-name">runtimectl console</span>
        {signedIn ? (
          <nav aria-label="Main" class="main-nav">
            <ul>
              {SECTIONS.map((section) => (
                <li key={section.label}>
                  <a href={section.href} aria-current={section.matches.includes(route.name) ? 'page' : undefined}>
                    {section.label}
                  </a>
                </li>
              ))}
            </ul>
            <button type="button" class="sign-out" onClick={onSignOut}>
              Sign out
            </button>
          </nav>
        ) : null}
      </header>
      <main id="main-content" ref={mainRef} tabindex={-1}>
        {children}
      </main>
    </>
  );
}
