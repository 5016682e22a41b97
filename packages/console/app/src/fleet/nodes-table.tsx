import type { NodeView } from '../api/api-types';
import { formatAge } from '../format/format-time';
import { ScrollTable } from '../components/scroll-table';

/** The fleet's nodes; `alive` is written out, not only coloured. */
export function NodesTable({ nodes, nowMs }: { nodes: NodeView[]; nowMs: number }) {
  return (
    <ScrollTable label="Nodes table" caption="Nodes" columns={['Node', 'URL', 'Version', 'Alive', 'Last heartbeat', 'Runtimes']}>
      {nodes.map((node) => (
        <tr key={node.node_id}>
          <td class="mono">{node.node_id}</td>
          <td class="mono">{node.advertise_url ?? '—'}</td>
          <td>{node.version}</td>
          <td>
            <span class={node.alive ? 'runtime-status runtime-status-idle' : 'runtime-status runtime-status-failed'}>{node.alive ? 'alive' : 'not alive'}</span>
          </td>
          <td>{formatAge(node.last_heartbeat_at_ms, nowMs)}</td>
          <td>{node.runtimes}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}
