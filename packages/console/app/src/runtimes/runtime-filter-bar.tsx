import type { RuntimeFilters } from './filter-runtimes';

interface RuntimeFilterBarProps {
  filters: RuntimeFilters;
  options: { statuses: string[]; providers: string[]; nodes: string[] };
  onChange(filters: RuntimeFilters): void;
}

function FilterSelect(props: { id: string; label: string; value: string; options: string[]; onChange(value: string): void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        <option value="">Any</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Search and filters of the runtimes table; options come from the runtimes themselves. */
export function RuntimeFilterBar({ filters, options, onChange }: RuntimeFilterBarProps) {
  return (
    <form class="filter-bar" role="search" aria-label="Filter runtimes" onSubmit={(event) => event.preventDefault()}>
      <div class="field field-wide">
        <label for="runtime-search">Search runtimes</label>
        <input
          id="runtime-search"
          type="search"
          value={filters.search}
          placeholder="id, conversation or sender"
          onInput={(event) => onChange({ ...filters, search: event.currentTarget.value })}
        />
      </div>
      <FilterSelect id="runtime-status" label="Status" value={filters.status} options={options.statuses} onChange={(status) => onChange({ ...filters, status })} />
      <FilterSelect
        id="runtime-provider"
        label="Provider"
        value={filters.provider}
        options={options.providers}
        onChange={(provider) => onChange({ ...filters, provider })}
      />
      <FilterSelect id="runtime-node" label="Node" value={filters.node} options={options.nodes} onChange={(node) => onChange({ ...filters, node })} />
      <div class="field">
        <label for="runtime-conversation">Conversation</label>
        <input
          id="runtime-conversation"
          type="text"
          value={filters.conversation}
          onInput={(event) => onChange({ ...filters, conversation: event.currentTarget.value })}
        />
      </div>
    </form>
  );
}
