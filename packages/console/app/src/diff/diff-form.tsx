import { useState } from 'preact/hooks';
import { hrefs } from '../router/parse-route';
import { navigate } from '../router/use-hash-route';

/** From and To of a comparison; Compare puts them in the URL, which the view reads. */
export function DiffForm({ from, to }: { from: string; to: string }) {
  const [fromValue, setFromValue] = useState(from);
  const [live, setLive] = useState(to.startsWith('runtime:'));
  const [toCheckpoint, setToCheckpoint] = useState(to.startsWith('runtime:') ? '' : to);
  const [runtime, setRuntime] = useState(to.startsWith('runtime:') ? to.slice('runtime:'.length) : '');

  return (
    <form
      class="filter-bar"
      aria-label="Compare"
      onSubmit={(event) => {
        event.preventDefault();
        const target = live ? `runtime:${runtime.trim()}` : toCheckpoint.trim();
        navigate(hrefs.diff(fromValue.trim(), target));
      }}
    >
      <div class="field field-wide">
        <label for="diff-from">From</label>
        <input id="diff-from" type="text" required value={fromValue} placeholder="rtcp_…" onInput={(event) => setFromValue(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label class="checkbox-label">
          <input type="checkbox" checked={live} onChange={(event) => setLive(event.currentTarget.checked)} />
          Live runtime
        </label>
      </div>
      {live ? (
        <div class="field field-wide">
          <label for="diff-runtime">Runtime</label>
          <input id="diff-runtime" type="text" required value={runtime} onInput={(event) => setRuntime(event.currentTarget.value)} />
        </div>
      ) : (
        <div class="field field-wide">
          <label for="diff-to">To</label>
          <input id="diff-to" type="text" required value={toCheckpoint} placeholder="rtcp_…" onInput={(event) => setToCheckpoint(event.currentTarget.value)} />
        </div>
      )}
      <div class="field field-button">
        <button type="submit">Compare</button>
      </div>
    </form>
  );
}
