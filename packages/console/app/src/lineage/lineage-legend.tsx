/** What the marks mean; drawn with the same classes as the tree so the two cannot disagree. */
export function LineageLegend({ retentionNote }: { retentionNote: string | null }) {
  return (
    <section class="lineage-legend" aria-labelledby="legend-heading">
      <h2 id="legend-heading">Legend</h2>
      <ul>
        <li>
          <svg width="22" height="22" viewBox="-11 -11 22 22" aria-hidden="true" class="node node-checkpoint snapshot-kept">
            <circle class="shape" r={8} />
          </svg>
          Checkpoint with its snapshot kept (filled)
        </li>
        <li>
          <svg width="22" height="22" viewBox="-11 -11 22 22" aria-hidden="true" class="node node-checkpoint kind-pause snapshot-kept">
            <path class="shape" d="M0,-9L9,0L0,9L-9,0Z" />
          </svg>
          Pause checkpoint (diamond)
        </li>
        <li>
          <svg width="22" height="22" viewBox="-11 -11 22 22" aria-hidden="true" class="node node-checkpoint snapshot-deleted">
            <circle class="shape" r={8} />
          </svg>
          Snapshot deleted (hollow)
        </li>
        <li>
          <svg width="22" height="22" viewBox="-11 -11 22 22" aria-hidden="true" class="node node-checkpoint snapshot-none">
            <circle class="shape" r={8} />
          </svg>
          No snapshot: the provider takes none (dotted)
        </li>
        <li>
          <svg width="22" height="26" viewBox="-11 -22 22 26" aria-hidden="true" class="node node-checkpoint is-pinned snapshot-kept">
            <circle class="shape" r={3} />
            <path class="pin" d="M-2,-20L-2,-9M-2,-20L7,-17L-2,-14" />
          </svg>
          Pinned: retention never deletes its snapshot (flag)
        </li>
        <li>
          <svg width="30" height="30" viewBox="-15 -15 30 30" aria-hidden="true" class="node node-checkpoint would-delete snapshot-kept">
            <circle class="retention-ring" r={13} />
            <circle class="shape" r={8} />
          </svg>
          Retention would delete its snapshot now (red dashed ring)
        </li>
        <li>
          <svg width="30" height="22" viewBox="-8 -11 30 22" aria-hidden="true" class="node node-live">
            <rect x={-6} y={-9} width={26} height={18} rx={9} />
          </svg>
          A runtime's live head, with its id and status
        </li>
        <li>
          <svg width="30" height="12" viewBox="0 -6 30 12" aria-hidden="true">
            <path class="edge edge-branch" d="M0,0L30,0" />
          </svg>
          Checked out or forked into another runtime (dashed edge)
        </li>
      </ul>
      {retentionNote ? <p class="note">{retentionNote}</p> : null}
    </section>
  );
}
