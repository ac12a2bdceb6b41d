// (c) Arbitration, the false-majority gauge: per hypothesis, P(h) next to the raw majority-vote count at
// this step and the factor-level contributions ρ_j·e_j·γ_j·β_j(h) per slot (a slot-coloured diverging bar), so
// it shows at a glance when many entries collapse into one factor. The gold answer and the decision are
// marked, and one sentence says what the numbers say. The counts, the dots, the sentence and the findings
// all come from one explain() (findings.ts), so they cannot disagree: only memories that state a value for
// the query's key back an answer.

import type { StepRecord } from '../../shared/episode';
import { argmax, contributions, fmt, fmtSigned, sameValue } from './derive';
import { type Backing, backingMajority, explain, type Thresholds } from './findings';
import { FindingsList } from './FindingsList';
import { slotColor, slotName } from './palette';
import { useInspector } from './store';

interface Props {
  step: StepRecord;
  gold: string | null;
  thresholds: Thresholds;
}

function ContributionBar({ step, h, scale }: { step: StepRecord; h: number; scale: number }) {
  const hoverSlot = useInspector((s) => s.hoverSlot);
  const row = contributions(step)[h] ?? [];
  const seg = (sign: 1 | -1) =>
    row
      .map((c, j) => ({ c, j }))
      .filter(({ c }) => c * sign > 1e-9)
      .map(({ c, j }) => (
        <span
          key={j}
          className="contrib-seg"
          style={{ width: `${(Math.abs(c) / scale) * 100}%`, background: slotColor(j) }}
          title={`${slotName(j)}: ρ=${fmt(step.reliability[j])} × e=${fmt(step.slotPresence[j])}${step.slotCredibility ? ` × γ=${fmt(step.slotCredibility[j])}` : ''} × β=${fmtSigned(step.slotSupport[j]?.[h] ?? 0)} = ${fmtSigned(c, 3)}`}
          onMouseEnter={() => hoverSlot(j)}
          onMouseLeave={() => hoverSlot(null)}
        />
      ));
  return (
    <div className="contrib" aria-label="factor contributions">
      <div className="contrib-neg">{seg(-1).reverse()}</div>
      <div className="contrib-axis" />
      <div className="contrib-pos">{seg(1)}</div>
    </div>
  );
}

/** One dot per memory stating this value, coloured by its strongest slot and grouped by slot. */
function EntryDots({ b }: { b: Backing }) {
  return (
    <span className="dots" data-testid="vote-dots" title={`${b.count} entries state ${b.hypothesis} in ${b.slots.length} slot(s): ${b.backers.map((x) => `${x.id} (${slotName(x.slot)})`).join(', ')}`}>
      {b.backers.map((x) => (
        <span key={x.row} className="dot" data-testid="vote-dot" style={{ background: slotColor(x.slot) }} />
      ))}
    </span>
  );
}

export function ArbitrationPanel({ step, gold, thresholds }: Props) {
  const L = step.hypotheses.length;
  const decision = argmax(step.posterior);
  const explanation = explain({ step, gold, thresholds, record: step });
  const majority = backingMajority(explanation.backing);
  const table = contributions(step);
  const scale = Math.max(
    1e-9,
    ...table.map((r) => Math.max(r.filter((c) => c > 0).reduce((a, b) => a + b, 0), -r.filter((c) => c < 0).reduce((a, b) => a + b, 0))),
  );
  const maxVote = Math.max(1, ...explanation.backing.map((b) => b.count));
  return (
    <section className="panel" data-testid="arbitration">
      <div className="panel-head">
        <h2>
          Arbitration <span className="muted">· entries vote vs factors decide</span>
        </h2>
      </div>
      {L === 0 ? (
        <p className="muted">No hypothesis at this step.</p>
      ) : (
        <table className="gauge">
          <thead>
            <tr>
              <th>hypothesis</th>
              <th title="P(h) = softmax(ℓ/τ_p) (Eq. 7)">P(h)</th>
              <th title="entries stating this value for the query's key (the majority vote counts these); one dot per entry, coloured by its slot">vote</th>
              <th title="ρ_j·e_j·γ_j·β_j(h) per slot (γ_j: the credibility of the slot's best statement); left of the axis against, right in favour">factor contributions ρ·e·γ·β</th>
              <th className="num" title="ℓ(h) = Σ_j ρ_j e_j β_j(h)">ℓ(h)</th>
            </tr>
          </thead>
          <tbody>
            {step.hypotheses.map((h, hi) => {
              const p = step.posterior[hi] ?? 0;
              const b = explanation.backing[hi] as Backing;
              const isGold = sameValue(h, gold);
              const isPick = hi === decision;
              const isVote = majority !== null && sameValue(h, majority.hypothesis);
              return (
                <tr
                  key={h}
                  className={`gauge-row${isPick ? ' pick' : ''}`}
                  data-testid="posterior-row"
                  data-hypothesis={h}
                  data-value={p}
                >
                  <td className="gauge-h">
                    <span className="h-name">{h}</span>
                    {isGold && <span className="tag gold" title="gold answer">gold</span>}
                    {isPick && <span className="tag pick" title="argmax P(h) at this step">CAMA</span>}
                    {isVote && <span className="tag vote" title="majority vote at this step">vote</span>}
                  </td>
                  <td className="gauge-p">
                    <div className="bar">
                      <div className="bar-fill" style={{ width: `${p * 100}%` }} />
                    </div>
                    <span className="num">{fmt(p, 3)}</span>
                  </td>
                  <td className="gauge-vote">
                    <div className="bar thin">
                      <div className="bar-fill vote" style={{ width: `${(b.count / maxVote) * 100}%` }} />
                    </div>
                    <span className="num" data-testid="vote-count">
                      {b.count}
                    </span>
                    <EntryDots b={b} />
                  </td>
                  <td className="gauge-contrib">
                    <ContributionBar step={step} h={hi} scale={scale} />
                  </td>
                  <td className="num">{fmtSigned(step.logits[hi] ?? 0)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p className="narrative" data-testid="arbitration-sentence">
        {explanation.sentence}
      </p>
      <FindingsList findings={explanation.findings} />
    </section>
  );
}
