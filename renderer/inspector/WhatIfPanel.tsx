// What-if: the step's arbitration recomputed by the backend with memories switched off, provenance edges
// added or removed and input groups of the trained model zeroed (what this one decision owes to the text,
// to what memories say of themselves, ...), beside the stored values, with the change highlighted: the numbers, the
// recomputed Z, the sentence and the findings (with why N_eff moved). The recomputation also goes to the
// inspector store, so the graph recolours its nodes by it. Nothing is saved.

import { useEffect, useState } from 'react';
import type { StepRecord } from '../../shared/episode';
import { INPUT_GROUP_MEANING, INPUT_GROUPS, type InputGroup, parseNeuralModelName } from '../../shared/methods';
import type { MemoryView, WhatIfResult } from '../../shared/views';
import { api } from '../api/client';
import { AssignmentHeatmap } from './AssignmentHeatmap';
import { argmax, fmt, fmtSigned, sameValue } from './derive';
import { explain, type Stated, type Thresholds } from './findings';
import { FindingsList } from './FindingsList';
import { RelianceTable } from './RelianceTable';
import { hasEdits, useInspector } from './store';

const CHANGED = 1e-9;

function Delta({ d, digits = 3 }: { d: number; digits?: number }) {
  if (Math.abs(d) < CHANGED) return <td className="num delta none">·</td>;
  return <td className={`num delta ${d > 0 ? 'up' : 'down'}`}>{fmtSigned(d, digits)}</td>;
}

interface Props {
  episodeId: number;
  step: StepRecord;
  memories: Record<string, MemoryView>;
  gold: string | null;
  thresholds: Thresholds;
  arrived: ReadonlySet<string>;
}

export function WhatIfPanel({ episodeId, step, memories, gold, thresholds, arrived }: Props) {
  const disabled = useInspector((s) => s.disabled);
  const addEdges = useInspector((s) => s.addEdges);
  const removeEdges = useInspector((s) => s.removeEdges);
  const zeroed = useInspector((s) => s.zeroed);
  const { toggleDisabled, toggleZeroed, zeroOnly, undoEdge, resetWhatIf } = useInspector.getState();
  // Only a trained evidence model has input groups to zero; the heuristic provider reads no features. An
  // input ablation's episode ran with some zeroed already: they stay zeroed in its what-if.
  const trained = parseNeuralModelName(step.provider);
  const ownZeroed: readonly InputGroup[] = trained?.zeroed ?? [];
  const [result, setResult] = useState<{ key: string; value: WhatIfResult & { step: WhatIfResult['step'] & Stated } } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const edited = hasEdits({ disabled, addEdges, removeEdges, zeroed });
  const requestKey = JSON.stringify([episodeId, step.t, disabled, addEdges, removeEdges, zeroed]);

  useEffect(() => {
    setError(null);
    if (!edited) {
      setResult(null);
      setBusy(false);
      return;
    }
    let live = true;
    setBusy(true);
    api
      .whatIf({ episodeId, t: step.t, disabled, addEdges, removeEdges, zeroed })
      // The recomputed step carries what each memory states, so its backing is the vote's, as the stored one's.
      .then((value) => live && setResult({ key: requestKey, value: { ...value, step: { ...value.step, stated: value.stated } } }))
      .catch((err: unknown) => live && setError((err as Error).message))
      .finally(() => live && setBusy(false));
    return () => {
      live = false;
    };
  }, [requestKey]);

  const current = result?.key === requestKey ? result.value : null;
  // Share the recomputation with the graph (its colours); cleared whenever it no longer matches the edits.
  useEffect(() => {
    useInspector.getState().setRecomputed(current ? { t: step.t, result: current } : null);
  }, [current, step.t]);
  const explained = current
    ? explain({ step: current.step, gold, thresholds, whatIf: { stored: step, edits: { disabled, addEdges, removeEdges, zeroed } } })
    : null;
  const storedSentence = current ? explain({ step, gold, thresholds, record: step }).sentence : null;
  const storedAnswer = step.hypotheses[argmax(step.posterior)] ?? null;
  const hypotheses = current ? [...new Set([...step.hypotheses, ...current.step.hypotheses])] : step.hypotheses;
  const pOf = (hyps: readonly string[], P: readonly number[], h: string): number | null => {
    const i = hyps.findIndex((x) => sameValue(x, h));
    return i >= 0 ? (P[i] ?? 0) : null;
  };

  return (
    <section className="panel" data-testid="whatif-panel">
      <div className="panel-head">
        <h2>
          What-if <span className="muted">· step {step.t} · not saved</span>
        </h2>
        <button type="button" onClick={resetWhatIf} disabled={!edited} data-testid="whatif-reset">
          reset
        </button>
      </div>
      {!edited ? (
        <p className="muted small">
          Untick a memory in the heatmap to switch it off; in the graph, shift-click a parent then its child to add an edge, or click an edge to
          remove it{trained ? '; below, zero one of the model\'s input groups' : ''}. The arbitration is recomputed at once.
        </p>
      ) : (
        <div className="edits">
          {disabled.map((id) => (
            <button type="button" key={`d${id}`} className="edit-chip off" onClick={() => toggleDisabled(id)} title="undo">
              off {id} ✕
            </button>
          ))}
          {addEdges.map((e) => (
            <button type="button" key={`a${e.child}${e.parent}`} className="edit-chip add" onClick={() => undoEdge(e, 'addEdges')} title="undo">
              + {e.child}←{e.parent} ✕
            </button>
          ))}
          {removeEdges.map((e) => (
            <button type="button" key={`r${e.child}${e.parent}`} className="edit-chip remove" onClick={() => undoEdge(e, 'removeEdges')} title="undo">
              − {e.child}←{e.parent} ✕
            </button>
          ))}
          {busy && <span className="muted small">recomputing…</span>}
        </div>
      )}
      {trained ? (
        <fieldset className="whatif-zeroed" data-testid="whatif-zeroed">
          <legend className="muted small">zero the model&apos;s inputs</legend>
          {INPUT_GROUPS.map((g) => {
            const own = ownZeroed.includes(g);
            const title = own
              ? `This episode was arbitrated with ${INPUT_GROUP_MEANING[g]} set to zero (an input ablation run): it stays zeroed`
              : `Recompute with ${INPUT_GROUP_MEANING[g]} set to zero, as eval --ablate does for a whole run`;
            return (
              <label key={g} title={title}>
                <input
                  type="checkbox"
                  checked={own || zeroed.includes(g)}
                  disabled={own}
                  onChange={() => toggleZeroed(g)}
                  data-testid="whatif-zero"
                  data-group={g}
                />{' '}
                {g}
              </label>
            );
          })}
        </fieldset>
      ) : (
        <p className="muted small" data-testid="whatif-zeroed-none">
          This step&apos;s assignment provider, {step.provider}, reads no input features, so there are none to zero: only a trained evidence model&apos;s
          decisions can be taken apart by input group.
        </p>
      )}
      {trained && <RelianceTable episodeId={episodeId} step={step} ownZeroed={ownZeroed} onPick={zeroOnly} />}
      {error && <p className="error-text">{error}</p>}
      {current && (
        <table className="whatif-table">
          <thead>
            <tr>
              <th />
              <th className="num">stored</th>
              <th className="num">what-if</th>
              <th className="num">Δ</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th>
                N<sub>eff</sub>
              </th>
              <td className="num">{fmt(step.nEff, 3)}</td>
              <td className="num strong" data-testid="whatif-neff" data-value={current.step.nEff}>
                {fmt(current.step.nEff, 3)}
              </td>
              <Delta d={current.step.nEff - step.nEff} />
            </tr>
            <tr>
              <th>H(P)</th>
              <td className="num">{fmt(step.entropy, 3)}</td>
              <td className="num">{fmt(current.step.entropy, 3)}</td>
              <Delta d={current.step.entropy - step.entropy} />
            </tr>
            {hypotheses.map((h) => {
              const before = pOf(step.hypotheses, step.posterior, h);
              const after = pOf(current.step.hypotheses, current.step.posterior, h);
              return (
                <tr key={h} data-testid="whatif-posterior" data-hypothesis={h} data-value={after ?? undefined}>
                  <th>P({h})</th>
                  <td className="num">{before === null ? '–' : fmt(before, 3)}</td>
                  <td className="num">{after === null ? '–' : fmt(after, 3)}</td>
                  <Delta d={(after ?? 0) - (before ?? 0)} />
                </tr>
              );
            })}
            <tr className={sameValue(storedAnswer, current.answer) ? '' : 'answer-changed'}>
              <th>answer</th>
              <td className="num">{storedAnswer ?? '–'}</td>
              <td className="num strong" data-testid="whatif-answer">
                {current.answer ?? '–'}
              </td>
              <td className="num delta">{sameValue(storedAnswer, current.answer) ? '·' : 'changed'}</td>
            </tr>
          </tbody>
        </table>
      )}
      {current && explained && (
        <div className="whatif-explained">
          <div className="whatif-sentences">
            <p className="narrative stored" data-testid="whatif-stored-sentence">
              <span className="muted small">stored · </span>
              {storedSentence}
            </p>
            <p className="narrative whatif" data-testid="whatif-sentence">
              <span className="muted small">what-if · </span>
              {explained.sentence}
            </p>
          </div>
          <FindingsList findings={explained.findings} testId="whatif-findings" />
          <AssignmentHeatmap step={current.step} memories={memories} arrived={arrived} tauN={thresholds.tauN} tauH={thresholds.tauH} variant="whatif" />
        </div>
      )}
    </section>
  );
}
