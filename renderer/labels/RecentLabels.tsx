// The author's own labels, newest first, each with delete: the place to take back a judgement given in an
// earlier sitting (Z only undoes this sitting's).

import { useState } from 'react';
import type { Label } from '../../shared/domain';
import { api } from '../api/client';
import { ErrorBox } from '../common/ErrorBox';
import { LabelChip } from '../common/labelStyle';

const SHOWN = 12;

function ago(iso: string): string {
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

export function RecentLabels({ labels, author, onRemoved }: { labels: Array<Label & { id: number }>; author: string; onRemoved(id: number): void }) {
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const mine = labels.filter((l) => l.author === author).sort((x, y) => y.id - x.id);
  const remove = async (id: number) => {
    setBusy(id);
    setError(null);
    try {
      await api.removeLabel({ id });
      onRemoved(id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="panel recent-labels" data-testid="label-recent">
      <h2 className="panel-title">
        Your labels <span className="muted num">{mine.length}</span>
      </h2>
      <ErrorBox title="Could not delete the label" error={error} onDismiss={() => setError(null)} />
      {mine.length === 0 ? (
        <p className="hint">{author ? `No labels by ${author} in this store yet.` : 'Set your name to see your labels.'}</p>
      ) : (
        <ul className="recent-list">
          {mine.slice(0, SHOWN).map((l) => (
            <li key={l.id} data-testid="label-recent-item" data-label-id={l.id}>
              <span className="mono pair-ids">
                {l.a} ↔ {l.b}
              </span>
              <LabelChip value={l.label} />
              <span className="muted recent-meta">
                {l.query ? `${l.query} · ` : ''}
                {ago(l.time)}
              </span>
              <button type="button" className="btn link" onClick={() => void remove(l.id)} disabled={busy !== null} aria-label={`delete label ${l.id}`} title="delete this label">
                delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {mine.length > SHOWN && <p className="hint">and {mine.length - SHOWN} earlier</p>}
    </section>
  );
}
