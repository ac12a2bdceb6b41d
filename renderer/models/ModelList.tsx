// The evidence models the workbench can run, one row each: where it came from, whether it is active,
// what it was trained on (μ, labels), how it is built where that changes what it reads (blind inputs,
// attention), its calibrated thresholds and its validation scores; and the button that makes it the one
// new analyses and evaluations use.

import type { ModelSummary } from '../../shared/views';
import { Badge, Button } from '../common/controls';
import { num, pct, when } from '../common/format';

export function ModelList({
  models,
  busyFile,
  fresh,
  onUse,
}: {
  models: ModelSummary[];
  /** The model being activated, if any. */
  busyFile: string | null;
  /** A model just trained in this window (marked new). */
  fresh: string | null;
  onUse(model: ModelSummary): void;
}) {
  return (
    <div className="model-list-scroll">
      <table className="model-list" data-testid="model-list">
        <thead>
          <tr>
            <th className="left">model</th>
            <th className="left">trained on</th>
            <th title="weight of the provenance prior on the attention logits (Eq. 2); 0 is the w/o-provenance-prior ablation">μ</th>
            <th title="researcher labels in the training store (they feed L_d)">labels</th>
            <th title="calibrated on the validation split: posterior temperature τ_p, sufficiency thresholds τ_N and τ_H">τ_p · τ_N · τ_H</th>
            <th title="validation accuracy, %">Acc</th>
            <th title="validation Correct Minority Recovery (Eq. 18), %">CMR ↑</th>
            <th title="validation Replication Sensitivity (Eq. 19), %">RS ↓</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.file} className={m.active ? 'active' : undefined} data-testid="model-row" data-model-name={m.name} data-active={m.active}>
              <th className="left">
                <div className="model-name">
                  <span className="mono">{m.name}</span>
                  {m.active && (
                    <Badge tone="good" title="new analyses and evaluations run this model">
                      active
                    </Badge>
                  )}
                  <Badge title={m.origin === 'shipped' ? 'shipped with the app (read-only)' : 'trained in this workbench, kept in your data folder'}>{m.origin === 'shipped' ? 'shipped' : 'yours'}</Badge>
                  {fresh === m.file && <Badge tone="warn">new</Badge>}
                  {m.inSample && (
                    <Badge tone="bad" title="trained on the store now open: its decisions on this store are in-sample, better than on new data">
                      in-sample
                    </Badge>
                  )}
                </div>
                <div className="model-file muted mono" title={m.file}>
                  {m.file}
                </div>
                {m.design && m.design.length > 0 && (
                  <div className="model-design" data-testid="model-design">
                    {m.design.map((d) => (
                      <Badge key={d.tag} title={d.meaning}>
                        {d.tag}
                      </Badge>
                    ))}
                  </div>
                )}
              </th>
              <td className="left">
                {m.trainedOn ?? <span className="muted">unknown</span>}
                {m.createdAt && <div className="muted small">{when(m.createdAt)}</div>}
              </td>
              <td className="num">
                {num(m.mu, 2)}
                {m.mu === 0 && <div className="muted small">no prior</div>}
              </td>
              <td className="num">{m.labelsUsed ?? '—'}</td>
              <td className="num" data-testid="model-taus">
                {m.calibration ? `${num(m.calibration.tauP, 2)} · ${num(m.gate?.tauN ?? m.calibration.tauN, 1)} · ${num(m.gate?.tauH ?? m.calibration.tauH, 2)}` : '—'}
                {m.gate && m.calibration && (
                  <div
                    className="muted small"
                    data-testid="model-gate"
                    title={`the learned recovery policy's card (${m.gate.policy}) recalibrated the sufficiency gate τ_N, τ_H for this model; episodes stop on these, not on the model's own`}
                  >
                    gate from the policy; model's own {num(m.calibration.tauN, 1)} · {num(m.calibration.tauH, 2)}
                  </div>
                )}
              </td>
              <td className="num">{pct(m.validation?.accuracy)}</td>
              <td className="num">{pct(m.validation?.cmr)}</td>
              <td className="num">{pct(m.validation?.rs)}</td>
              <td className="action">
                {m.active ? (
                  <span className="muted small">in use</span>
                ) : (
                  <Button onClick={() => onUse(m)} busy={busyFile === m.file} disabled={busyFile !== null} data-testid="model-use">
                    Use this model
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
