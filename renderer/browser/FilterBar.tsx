// The browser's filters: false majority, decision flips, not sufficient at t=0, a tag, and text over the id,
// the question and the answers. They combine (AND); the count says how many rows pass.

import { useMemo } from 'react';
import type { QueryRow } from '../../shared/views';
import { Button } from '../common/controls';
import { count } from '../common/format';
import { anyFilter, tagCounts, useBrowser } from './filters';

function Flag({ testId, label, title, checked, n, onChange }: { testId: string; label: string; title: string; checked: boolean; n: number; onChange(v: boolean): void }) {
  return (
    <label className={checked ? 'flag on' : 'flag'} title={title}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} data-testid={testId} />
      {label} <span className="flag-n num">{count(n)}</span>
    </label>
  );
}

/** `onArrowDown`: ↓ in the search field moves into the table. */
export function FilterBar({ rows, shown, onArrowDown }: { rows: readonly QueryRow[]; shown: number; onArrowDown(): void }) {
  const falseMajority = useBrowser((s) => s.falseMajority);
  const flips = useBrowser((s) => s.flips);
  const insufficientAtStart = useBrowser((s) => s.insufficientAtStart);
  const tag = useBrowser((s) => s.tag);
  const text = useBrowser((s) => s.text);
  const set = useBrowser((s) => s.set);
  const clear = useBrowser((s) => s.clear);
  const totals = useMemo(
    () => ({
      falseMajority: rows.filter((r) => r.falseMajority).length,
      flips: rows.filter((r) => r.flip).length,
      insufficientAtStart: rows.filter((r) => r.insufficientAtStart).length,
      tags: tagCounts(rows),
    }),
    [rows],
  );
  const filtered = anyFilter({ falseMajority, flips, insufficientAtStart, tag, text });
  return (
    <div className="filter-bar">
      <input
        className="field search"
        type="search"
        placeholder="Search id, question, answers"
        value={text}
        onChange={(e) => set({ text: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            onArrowDown();
          }
        }}
        aria-label="search queries"
        data-testid="filter-text"
      />
      <Flag
        testId="filter-false-majority"
        label="false majority"
        title="the majority vote is wrong (or, without gold, CAMA disagrees with it)"
        checked={falseMajority}
        n={totals.falseMajority}
        onChange={(v) => set({ falseMajority: v })}
      />
      <Flag testId="filter-flips" label="flips" title="CAMA’s decision differs from the majority vote" checked={flips} n={totals.flips} onChange={(v) => set({ flips: v })} />
      <Flag
        testId="filter-insufficient-at-start"
        label="not sufficient at t=0"
        title="CAMA’s sufficiency rule failed on the initial slice (N_eff < τ_N or H(P) > τ_H), so the episode had to recover. The tag “insufficient” is another thing: the benchmark’s D_rec (a factor backing the gold answer is missing from the slice, from ground truth)"
        checked={insufficientAtStart}
        n={totals.insufficientAtStart}
        onChange={(v) => set({ insufficientAtStart: v })}
      />
      <select className="field" value={tag} onChange={(e) => set({ tag: e.target.value })} aria-label="tag" data-testid="filter-tag">
        <option value="">all tags</option>
        {totals.tags.map(([t, n]) => (
          <option key={t} value={t}>
            {t} ({n})
          </option>
        ))}
      </select>
      {filtered && (
        <Button variant="link" onClick={clear}>
          clear filters
        </Button>
      )}
      <span className="row-count num" data-testid="row-count">
        {shown} of {rows.length} shown
      </span>
    </div>
  );
}
