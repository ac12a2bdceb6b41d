// Progress towards a labelling target (the researcher's own decisive labels in this store against a
// number they set, remembered in this browser), and the store's labels exported as a bundle's
// labels.jsonl, to share or to keep beside the bundle.

import { useState } from 'react';
import type { LabelStats } from '../../shared/views';
import { api } from '../api/client';
import { Button } from '../common/controls';
import { errorText } from '../common/ErrorBox';
import { downloadText } from '../common/download';

const TARGET_KEY = 'workbench-label-target';
const DEFAULT_TARGET = 50;

function storedTarget(): number {
  try {
    const n = Number(localStorage.getItem(TARGET_KEY));
    return Number.isInteger(n) && n >= 1 ? n : DEFAULT_TARGET;
  } catch {
    return DEFAULT_TARGET;
  }
}

export function LabelProgress({ stats, author }: { stats: LabelStats; author: string }) {
  const [target, setTarget] = useState(storedTarget);
  const mine = stats.authors.find((a) => a.name === author)?.count ?? 0;
  const fraction = Math.min(1, mine / target);
  const change = (n: number) => {
    if (!Number.isInteger(n) || n < 1 || n > 100_000) return;
    setTarget(n);
    try {
      localStorage.setItem(TARGET_KEY, String(n));
    } catch {
      // storage disabled: the target lasts for this page only
    }
  };
  return (
    <section className="panel label-progress" data-testid="label-progress" data-done={mine} data-target={target}>
      <h2 className="panel-title">Your progress</h2>
      <div className="progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={target} aria-valuenow={mine} aria-label="labels towards the target">
        <div className="progress-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      <p className="small">
        <b className="num">{mine}</b> of{' '}
        <input
          className="field num target-field"
          type="number"
          min={1}
          value={target}
          onChange={(e) => change(e.target.valueAsNumber)}
          aria-label="labelling target"
          data-testid="label-target"
        />{' '}
        labels{author ? ` by ${author}` : ''}
        {mine >= target ? <span className="good-text"> · target reached</span> : null}
      </p>
      <ExportLabels total={stats.total} />
    </section>
  );
}

/** Downloads the store's labels as labels.jsonl (the bundle's format, docs/bundle-format.md). */
function ExportLabels({ total }: { total: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const { jsonl } = await api.exportLabels({});
      downloadText(jsonl, 'application/x-ndjson', 'labels.jsonl');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <p className="small">
      <Button variant="link" onClick={() => void download()} busy={busy} disabled={total === 0} data-testid="label-export" title="every label in this store, as a bundle's labels.jsonl">
        Export {total} label{total === 1 ? '' : 's'} (labels.jsonl)
      </Button>
      {error && <span className="error-text"> {error}</span>}
    </p>
  );
}
