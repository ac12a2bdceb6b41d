// The drawer's "label with…": judge the open memory against another memory of this episode as
// dependent / independent / unsure, under the episode's question, as the researcher named in the Labels
// view. The labels already on the open memory are listed (one's own can be deleted); after any change
// the episode is fetched again, so the graph's labelled edges follow.

import { useState } from 'react';
import type { Label, LabelValue } from '../../shared/domain';
import type { MemoryView } from '../../shared/views';
import { api } from '../api/client';
import { errorText } from '../common/ErrorBox';
import { useAuthor } from '../common/author';
import { AuthorField } from '../common/AuthorField';
import { LABEL_VALUES, LabelChip } from '../common/labelStyle';
import { shortText } from './derive';

export function PairLabelForm({
  memoryId,
  partners,
  memories,
  labels,
  queryId,
  onChanged,
}: {
  memoryId: string;
  /** The memories it can be paired with: the step's slice first, then the rest of the episode. */
  partners: string[];
  memories: Record<string, MemoryView>;
  labels: Array<Label & { id: number }>;
  queryId: string;
  onChanged(): void;
}) {
  const [author] = useAuthor();
  const [other, setOther] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mine = labels.filter((l) => l.a === memoryId || l.b === memoryId);

  const act = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await call();
      onChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  // After a label the choice is cleared, so a second click cannot label the same pair twice by accident.
  const give = (label: LabelValue) => act(() => api.addLabel({ a: memoryId, b: other, label, query: queryId, author }).then(() => setOther('')));

  return (
    <div className="pair-label" data-testid="pair-label">
      {!author ? (
        <div className="pair-label-author">
          <AuthorField testId="pair-label-author" />
          <p className="muted small" data-testid="pair-label-author-hint">
            Labels carry your name: type it and press Enter (or click elsewhere) to start labelling. The Labels view remembers it.
          </p>
        </div>
      ) : (
        <>
          <div className="pair-label-row">
            <select value={other} onChange={(e) => setOther(e.target.value)} disabled={busy} aria-label="the other memory" data-testid="pair-label-other">
              <option value="">pair {memoryId} with…</option>
              {partners.map((id) => (
                <option key={id} value={id}>
                  {id}: {shortText(memories[id]?.text ?? '', 48)}
                </option>
              ))}
            </select>
          </div>
          <div className="pair-label-row">
            {LABEL_VALUES.map((value) => (
              <button key={value} type="button" className={`pair-label-btn ${value}`} disabled={busy || !other} onClick={() => void give(value)} data-testid={`pair-label-${value}`}>
                {value}
              </button>
            ))}
            <span className="muted small">as {author}</span>
          </div>
        </>
      )}
      {error && <p className="error-text small">{error}</p>}
      {mine.length > 0 && (
        <ul className="pair-label-list">
          {mine.map((l) => {
            const partner = l.a === memoryId ? l.b : l.a;
            return (
              <li key={l.id}>
                ↔ <span className="mono">{partner}</span> <LabelChip value={l.label} /> <span className="muted">by {l.author}</span>
                {l.author === author && (
                  <button type="button" className="linklike" disabled={busy} onClick={() => void act(() => api.removeLabel({ id: l.id }))} aria-label={`delete label ${l.id}`}>
                    delete
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
