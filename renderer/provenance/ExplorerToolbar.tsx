// The explorer's controls: how many memories to draw (whole cascades, largest first), the colouring,
// and the search box (Enter: the next match, Shift+Enter: the previous one).

import { type ColorBy, useExplorer } from './store';

export const LIMITS = [500, 2000, 5000, 20000] as const;

export const int = (n: number): string => n.toLocaleString('en-US');

export interface SearchState {
  query: string;
  matches: number;
  /** Index of the match shown, or -1 before the first Enter. */
  cursor: number;
}

interface Props {
  limit: number;
  onLimit(limit: number): void;
  search: SearchState;
  onQuery(query: string): void;
  onStep(direction: 1 | -1): void;
}

function ColorToggle() {
  const colorBy = useExplorer((s) => s.colorBy);
  const setColorBy = useExplorer((s) => s.setColorBy);
  const option = (value: ColorBy, label: string) => (
    <button
      type="button"
      className={colorBy === value ? 'pv-seg on' : 'pv-seg'}
      aria-pressed={colorBy === value}
      onClick={() => setColorBy(value)}
      data-testid={`explorer-color-${value}`}
    >
      {label}
    </button>
  );
  return (
    <span className="pv-segs" role="group" aria-label="colour nodes by">
      <span className="muted">colour by</span>
      {option('cascade', 'cascade')}
      {option('kind', 'kind')}
    </span>
  );
}

export function ExplorerToolbar({ limit, onLimit, search, onQuery, onStep }: Props) {
  const { query, matches, cursor } = search;
  return (
    <div className="pv-toolbar">
      <h1 className="pv-title">Provenance</h1>
      <label className="pv-control">
        <span className="muted">draw up to</span>
        <select className="field" value={limit} onChange={(e) => onLimit(Number(e.target.value))} data-testid="explorer-limit">
          {LIMITS.map((l) => (
            <option key={l} value={l}>
              {int(l)} memories
            </option>
          ))}
        </select>
      </label>
      <ColorToggle />
      <span className="pv-search">
        <input
          className="field"
          type="search"
          placeholder="find a memory id or text"
          value={query}
          onChange={(e) => onQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onStep(e.shiftKey ? -1 : 1);
            }
          }}
          aria-label="find a memory by id or text"
          data-testid="explorer-search"
        />
        <span className="pv-search-status muted" data-testid="explorer-search-status" data-matches={matches}>
          {query.trim() === '' ? '' : matches === 0 ? 'no match among the drawn memories (those with recorded provenance)' : cursor < 0 ? `${int(matches)} found · Enter to go` : `${int(cursor + 1)} / ${int(matches)}`}
        </span>
      </span>
    </div>
  );
}
