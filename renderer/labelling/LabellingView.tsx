// Labelling functions (route /labelling): the researchers' provenance rules over memory pairs, each with
// Snorkel's coverage / overlap / conflict over the candidate pairs (pairs in one analysed slice or on one
// claim key, and labelled pairs) and its accuracy against researcher labels and recorded provenance; the
// label model's learned accuracies and probabilistic labels ("apply label model"); the pairs where the
// functions disagree, each opening both memories; and the way to training with the weak labels.
import { useState } from 'react';
import { Link } from 'wouter';
import type { LfDisagreement, LfReport, StoredLabellingFunction, WeakLabelSummary } from '../../shared/labelling-functions';
import { api } from '../api/client';
import { Button, Empty, Loading } from '../common/controls';
import { ErrorBox, errorText } from '../common/ErrorBox';
import { count, num } from '../common/format';
import { useSession } from '../common/session';
import { useAction } from '../common/useAction';
import { useFetch } from '../common/useFetch';
import { MemoryCard } from '../labels/MemoryCard';
import { sharedWords } from '../labels/overlap';
import { FunctionEditor } from './FunctionEditor';
import './labelling.css';
import { downloadText } from '../common/download';

/** A fraction (0–1) as a percentage; a dash for none. */
const share = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(1)} %`);

function StatsTable({ report, onEdit, onDelete }: { report: LfReport; onEdit(f: StoredLabellingFunction): void; onDelete(f: StoredLabellingFunction): void }) {
  return (
    <table className="lf-table" data-testid="lf-table">
      <thead>
        <tr>
          <th className="left">function</th>
          <th className="left">kind · vote</th>
          <th title="pairs it votes on">votes</th>
          <th title="share of candidate pairs it votes on">coverage</th>
          <th title="share of candidate pairs it votes on together with another function">overlap</th>
          <th title="share of candidate pairs where another function votes the other way">conflict</th>
          <th title="share right against researcher labels (each pair's majority), and on how many pairs">vs labels</th>
          <th title="share right against recorded provenance (dependent = a shared recorded root)">vs provenance</th>
          <th title="the label model's accuracy, learned from the votes alone">learned</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {report.stats.map((s, j) => {
          const f = report.functions[j] as StoredLabellingFunction;
          return (
            <tr
              key={f.id}
              data-testid="lf-row"
              data-name={s.name}
              data-votes={s.votes}
              data-coverage={s.coverage}
              data-overlap={s.overlap}
              data-conflict={s.conflict}
              data-label-accuracy={s.labelAccuracy ?? ''}
              data-provenance-accuracy={s.provenanceAccuracy ?? ''}
              data-learned-accuracy={s.learnedAccuracy ?? ''}
            >
              <td className="left">
                <b>{s.name}</b>
                {s.weight < 1 && <span className="muted small" title="counted as one with its correlated group"> · weight {num(s.weight, 2)}</span>}
              </td>
              <td className="left mono small">
                {f.spec.kind} · <span className={s.vote === 'dependent' ? 'vote-dep' : 'vote-ind'}>{s.vote}</span>
              </td>
              <td className="num">{count(s.votes)}</td>
              <td className="num">{share(s.coverage)}</td>
              <td className="num">{share(s.overlap)}</td>
              <td className="num">{share(s.conflict)}</td>
              <td className="num">
                {share(s.labelAccuracy)} <span className="muted small">({s.labelPairs})</span>
              </td>
              <td className="num">{share(s.provenanceAccuracy)}</td>
              <td className="num">{share(s.learnedAccuracy)}</td>
              <td>
                <Button variant="link" onClick={() => onEdit(f)} data-testid="lf-edit">
                  edit
                </Button>
                <Button variant="link" onClick={() => onDelete(f)} data-testid="lf-delete">
                  delete
                </Button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Both memories of a disagreement, side by side, loaded when opened. */
function PairMemories({ pair }: { pair: LfDisagreement }) {
  const both = useFetch(`lf-pair:${pair.a}:${pair.b}`, () => Promise.all([api.memory({ id: pair.a }), api.memory({ id: pair.b })]));
  if (both.error) return <ErrorBox error={both.error} />;
  if (!both.data) return <Loading what="the two memories" />;
  const [a, b] = both.data;
  const shared = sharedWords(a.text, b.text);
  return (
    <div className="lf-pair-memories" data-testid="lf-pair-memories">
      <MemoryCard side="A" memory={a} other={b.id} shared={shared} testId="lf-memory-a" />
      <MemoryCard side="B" memory={b} other={a.id} shared={shared} testId="lf-memory-b" />
    </div>
  );
}

function Disagreements({ report }: { report: LfReport }) {
  const [open, setOpen] = useState<string | null>(null);
  if (report.disagreements.length === 0) return <p className="hint">No pair where one function says dependent and another independent.</p>;
  return (
    <ul className="lf-disagreements" data-testid="lf-disagreements">
      {report.disagreements.map((d) => {
        const key = `${d.a}|${d.b}`;
        return (
          <li key={key} data-testid="lf-disagreement" data-pair={key} data-probability={d.probability}>
            <button type="button" className="lf-pair-head" onClick={() => setOpen(open === key ? null : key)} aria-expanded={open === key}>
              <span className="mono">{d.a}</span> – <span className="mono">{d.b}</span>
              <span className="vote-dep small"> dependent: {d.dependent.join(', ')}</span>
              <span className="vote-ind small"> independent: {d.independent.join(', ')}</span>
              <span className="num small"> · P(dep) {num(d.probability, 2)}</span>
              {d.queryId && <span className="muted small"> · {d.queryId}</span>}
            </button>
            {open === key && <PairMemories pair={d} />}
          </li>
        );
      })}
    </ul>
  );
}

function LabelModel({ report }: { report: LfReport }) {
  const apply = useAction<WeakLabelSummary>();
  const s = apply.result;
  const max = s ? Math.max(1, ...s.histogram) : 1;
  return (
    <section className="panel" data-testid="lf-model">
      <h2>Label model</h2>
      <p className="hint">
        A generative model (Dawid–Skene, abstains modelled per class, fitted by EM) learns each function's accuracy from the votes alone and combines them into
        P(dependent) per pair. Functions that co-vote far beyond what independence predicts are counted as one
        {report.model && report.model.groups.length > 0 ? (
          <>
            : here <b data-testid="lf-groups">{report.model.groups.map((g) => g.join(' + ')).join('; ')}</b>
          </>
        ) : null}
        .
      </p>
      <Button variant="primary" onClick={() => void apply.run(() => api.applyLabelModel({}))} busy={apply.busy} disabled={report.functions.length === 0} data-testid="lf-apply">
        Apply label model
      </Button>
      <ErrorBox title="The label model failed" error={apply.error} onDismiss={apply.reset} />
      {s && (
        <div className="lf-weak" data-testid="lf-weak" data-count={s.count} data-dependent={s.dependent} data-independent={s.independent}>
          <p>
            <b className="num">{count(s.count)}</b> probabilistic labels: <b className="num vote-dep">{count(s.dependent)}</b> dependent,{' '}
            <b className="num vote-ind">{count(s.independent)}</b> independent (P ≥ 0.5 / &lt; 0.5); <span className="num">{count(s.unsure)}</span> too unsure to enter
            training. Prior P(dependent) = {num(report.model?.prior ?? null, 2)}.
          </p>
          <div className="lf-histogram" title="P(dependent), in tenths">
            {s.histogram.map((n, i) => (
              <span key={i} className="lf-bin" style={{ height: `${(100 * n) / max}%` }} title={`${i / 10}–${(i + 1) / 10}: ${n}`} />
            ))}
          </div>
          <div className="lf-axis" data-testid="lf-histogram-axis">
            <span>0</span>
            <span>P(dependent), in tenths · pairs per bar, the tallest {count(max)}</span>
            <span>1</span>
          </div>
          {/* The Models view's train form reads this once (renderer/models/TrainForm.tsx, TRAIN_WEAK_KEY). */}
          <Link href="/models" onClick={() => sessionStorage.setItem('workbench-train-weak-labels', '1')} className="btn primary" data-testid="lf-train">
            Train with these labels →
          </Link>
        </div>
      )}
    </section>
  );
}

function ExportImport({ onImported }: { onImported(): void }) {
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    try {
      const { json } = await api.exportLabellingFunctions({});
      downloadText(json, 'application/json', 'labelling-functions.json');
    } catch (err) {
      setError(errorText(err));
    }
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    try {
      await api.importLabellingFunctions({ json: await file.text() });
      setError(null);
      onImported();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <span className="lf-io">
      <Button variant="link" onClick={() => void download()} data-testid="lf-export">
        export JSON
      </Button>
      <label className="btn link">
        import JSON
        <input type="file" accept="application/json,.json" hidden onChange={(e) => void upload(e.target.files?.[0])} data-testid="lf-import" />
      </label>
      {error && <span className="bad-text small">{error}</span>}
    </span>
  );
}

export function LabellingView() {
  const store = useSession((s) => s.session?.store ?? null);
  const revision = useSession((s) => s.revision);
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<StoredLabellingFunction | null>(null);
  const report = useFetch(store ? `lf:${store.path}:${revision}:${version}` : null, () => api.labellingFunctions({}));
  const remove = useAction<unknown>();
  const changed = () => setVersion((v) => v + 1);
  if (!store) return <Empty>Open a store first.</Empty>;
  return (
    <div className="labelling" data-testid="labelling-view">
      <FunctionEditor key={editing?.id ?? 'new'} editing={editing} onSaved={() => (setEditing(null), changed())} onCancel={() => setEditing(null)} />
      <section className="panel">
        <h2>
          Functions <ExportImport onImported={changed} />
        </h2>
        <ErrorBox title="Could not delete" error={remove.error} onDismiss={remove.reset} />
        {report.error ? (
          <ErrorBox title="Could not apply the functions" error={report.error} />
        ) : !report.data ? (
          <Loading what="the functions' statistics" />
        ) : report.data.functions.length === 0 ? (
          <Empty>No labelling function yet: write one above.</Empty>
        ) : (
          <>
            <p className="hint" data-testid="lf-summary" data-pairs={report.data.pairs}>
              Over <b className="num">{count(report.data.pairs)}</b> candidate pairs (pairs in one analysed slice or on one claim key, and labelled pairs); at least one
              function votes on <b className="num">{share(report.data.coverage)}</b> of them.
            </p>
            <StatsTable
              report={report.data}
              onEdit={setEditing}
              onDelete={(f) => void remove.run(() => api.deleteLabellingFunction({ id: f.id })).then((r) => r !== undefined && changed())}
            />
          </>
        )}
      </section>
      {report.data && report.data.functions.length > 0 && (
        <>
          <LabelModel key={version} report={report.data} />
          <section className="panel">
            <h2>Where functions disagree</h2>
            <Disagreements report={report.data} />
          </section>
        </>
      )}
    </div>
  );
}
