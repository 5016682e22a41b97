import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './parse-route';

/** The current route, following `hashchange` (back/forward and links). */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function navigate(href: string): void {
  window.location.hash = href.replace(/^#/, '');
}
