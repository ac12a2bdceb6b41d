// What one decision rests on: the stored step recomputed with each input group of the trained model zeroed
// in turn (the what-if's own recomputation, everything else as stored), one row per group, the rows that
// change the answer marked. `eval --ablate` measures the same over a whole run; here a researcher sees it
// for the decision in front of them (e.g. an answer that only what the memories say of themselves holds up).

import { useEffect, useState } from 'react';
import type { StepRecord } from '../../shared/episode';
import { INPUT_GROUP_MEANING, INPUT_GROUPS, type InputGroup } from '../../shared/methods';
import { argmax, sameValue } from '../../shared/values';
import type { WhatIfResult } from '../../shared/views';
import { api } from '../api/client';
import { fmt } from './derive';
import { listed } from './findings';

interface Props {
  episodeId: number;
  step: StepRecord;
  /** Groups the episode ran with zeroed already (an input ablation's episode): no row of their own. */
  ownZeroed: readonly InputGroup[];
  /** Puts one group's zeroing into the what-if above. */
  onPick(group: InputGroup): void;
}

type Row = { group: InputGroup; result: WhatIfResult };

export function RelianceTable({ episodeId, step, ownZeroed, onPick }: Props) {
  const groups = INPUT_GROUPS.filter((g) => !ownZeroed.includes(g));
  const key = JSON.stringify([episodeId, step.t, groups]);
  const [rows, setRows] = useState<{ key: string; rows: Row[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setError(null);
    Promise.all(groups.map(async (group) => ({ group, result: await api.whatIf({ episodeId, t: step.t, disabled: [], addEdges: [], removeEdges: [], zeroed: [group] }) })))
      .then((value) => live && setRows({ key, rows: value }))
      .catch((err: unknown) => live && setError((err as Error).message));
    return () => {
      live = false;
    };
  }, [key]);

  if (error) return <p className="error-text">{error}</p>;
  const current = rows?.key === key ? rows.rows : null;
  if (!current) return <p className="muted small">taking the decision apart by input group…</p>;
  const stored = step.hypotheses[argmax(step.posterior)] ?? null;
  const pStored = (r: WhatIfResult): number | null => {
    const i = r.step.hypotheses.findIndex((h) => sameValue(h, stored));
    return i >= 0 ? (r.step.posterior[i] ?? 0) : null;
  };
  const flips = current.filter((r) => !sameValue(r.result.answer, stored)).map((r) => r.group);
  return (
    <div className="reliance" data-testid="reliance">
      <p className="small" data-testid="reliance-summary">
        {flips.length === 0
          ? `No input group alone changes this step's answer (${stored ?? '–'}).`
          : `This step's answer (${stored ?? '–'}) rests on the model's ${listed(flips)} input${flips.length === 1 ? '' : 's'}: zeroing ${flips.length === 1 ? 'it' : 'any one of them'} changes it.`}
      </p>
      <table className="whatif-table">
        <thead>
          <tr>
            <th>zeroed alone</th>
            <th className="num">answer</th>
            <th className="num">P({stored ?? '–'})</th>
            <th className="num">
              N<sub>eff</sub>
            </th>
          </tr>
        </thead>
        <tbody>
          {current.map(({ group, result }) => {
            const flipped = !sameValue(result.answer, stored);
            const p = pStored(result);
            return (
              <tr
                key={group}
                className={flipped ? 'answer-changed' : ''}
                data-testid="reliance-row"
                data-group={group}
                data-answer={result.answer ?? ''}
                data-flipped={flipped}
                title={`${INPUT_GROUP_MEANING[group]} set to zero; click to put it in the what-if above`}
                onClick={() => onPick(group)}
              >
                <th>{group}</th>
                <td className="num">{result.answer ?? '–'}</td>
                <td className="num">{p === null ? '–' : fmt(p, 3)}</td>
                <td className="num">{fmt(result.step.nEff, 3)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
