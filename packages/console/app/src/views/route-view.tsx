import type { Route } from '../router/parse-route';
import { DiffView } from './diff-view';
import { EventsView } from './events-view';
import { FilesView } from './files-view';
import { FleetView } from './fleet-view';
import { LineageView } from './lineage-view';
import { RuntimesView } from './runtimes-view';

/** The view for a route; keyed so a change of id starts the view afresh. */
export function RouteView({ route }: { route: Route }) {
  switch (route.name) {
    case 'runtimes':
      return <RuntimesView />;
    case 'lineage':
      return <LineageView key={route.runtimeId} runtimeId={route.runtimeId} />;
    case 'diff':
      return <DiffView key={`${route.from} ${route.to}`} from={route.from} to={route.to} />;
    case 'files':
      return <FilesView key={`${route.checkpointId} ${route.path}`} checkpointId={route.checkpointId} path={route.path} />;
    case 'events':
      return <EventsView />;
    case 'fleet':
      return <FleetView />;
    case 'not-found':
      return (
        <>
          <h1>Not found</h1>
          <p>
            There is no view at <code>{route.hash}</code>. <a href="#/runtimes">Go to the runtimes</a>.
          </p>
        </>
      );
  }
}
