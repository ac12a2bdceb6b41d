// Training a new evidence model from the workbench: on the open store's questions and labels (the labels
// feed L_d, Eq. 15), validated and calibrated on the shipped validation split, written to the data folder.
// The job's progress shows the epoch and the loss it reports; the loss is drawn as it comes. Before it
// starts, the plan (api.trainPlan) says what the split is and whether there is enough data: too little
// is refused, little must be acknowledged.

import type { TrainPlan } from '../../shared/views';
import { useFetch } from '../common/useFetch';

import { useState } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ModelSummary } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { Button } from '../common/controls';
import { count } from '../common/format';
import { isRunning, runJob, useJob } from '../common/jobs';
import { JobPanel } from '../common/ProgressBar';
import { useTrainingCurve } from './trainingCurve';

/** Set by the Labelling-functions view's "train with these labels" link; read once here. */
export const TRAIN_WEAK_KEY = 'workbench-train-weak-labels';

/** The backend's rule for a model name (it becomes a file name). */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

function suggestedName(): string {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `labels-${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}`;
}

function LossCurve() {
  const { points, epoch, epochs } = useTrainingCurve();
  const job = useJob('train');
  if (points.length === 0 || useTrainingCurve.getState().jobId !== job?.status?.id) return null;
  const last = points[points.length - 1];
  return (
    <figure className="loss-curve" data-testid="train-loss">
      <figcaption>
        epoch <b className="num">{epoch}</b> of {epochs} · loss <b className="num">{last?.loss.toFixed(3)}</b>{' '}
        <span className="muted">(L = λ_task L_task + λ_d L_d; the recovery policy is trained separately, with `cama train-policy`; running mean over the epoch)</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={120}>
        <LineChart data={points} margin={{ top: 6, right: 10, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e3e6ea" />
          <XAxis dataKey="epoch" type="number" domain={[0, epochs ?? 'auto']} tickCount={Math.min(11, (epochs ?? 4) + 1)} allowDecimals={false} tick={{ fontSize: 10, fill: '#66707a' }} />
          <YAxis domain={['auto', 'auto']} tick={{ fontSize: 10, fill: '#66707a' }} width={38} tickFormatter={(v: number) => v.toFixed(2)} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} labelFormatter={(x) => `epoch ${Number(x).toFixed(2)}`} contentStyle={{ fontSize: 12 }} />
          <Line dataKey="loss" stroke="#2f6fdf" dot={false} strokeWidth={1.6} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

function PlanNote({ plan, ack, onAck, disabled, weak }: { plan: TrainPlan; ack: boolean; onAck(v: boolean): void; disabled: boolean; weak: boolean }) {
  return (
    <div className={`train-plan ${plan.verdict}`} data-testid="train-plan" data-verdict={plan.verdict}>
      <div>
        Split: <b className="num">{count(plan.trainQuestions)}</b> of the store's {count(plan.questions)} questions (those with a gold answer) and its{' '}
        <b className="num">{count(plan.labels)}</b> labels
        {weak ? ", with the labelling functions' weak labels (the label model's, as many as it is confident on)" : ''} for training; the epoch and τ_p, τ_N, τ_H are chosen on <b className="mono">{plan.validation.name}</b>{' '}
        (the shipped validation split: simulated, disjoint from the store).
      </div>
      {plan.problems.length > 0 && (
        <ul>
          {plan.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {plan.verdict === 'warn' && (
        <label>
          <input type="checkbox" checked={ack} onChange={(e) => onAck(e.target.checked)} disabled={disabled} data-testid="train-ack" /> train anyway
        </label>
      )}
    </div>
  );
}

export function TrainForm({ models, onTrained }: { models: ModelSummary[]; onTrained(file: string | null): void }) {
  const store = useSession((s) => s.session?.store ?? null);
  const revision = useSession((s) => s.revision);
  const plan = useFetch(store ? `trainPlan:${store.path}:${revision}` : null, () => api.trainPlan({}));
  const [ack, setAck] = useState(false);
  const planAllows = plan.data !== undefined && (plan.data.verdict === 'ok' || (plan.data.verdict === 'warn' && ack));
  const [name, setName] = useState(suggestedName);
  const [epochs, setEpochs] = useState(8);
  const [mu, setMu] = useState(0.5);
  const [seed, setSeed] = useState(1);
  const [useLabels, setUseLabels] = useState(true);
  // Arriving from the Labelling-functions view's "train with these labels" ticks the box (a one-shot note
  // in sessionStorage: a query string would clobber the page's own, and the hash route must stay /models).
  const [useWeakLabels, setUseWeakLabels] = useState(() => {
    const asked = sessionStorage.getItem(TRAIN_WEAK_KEY) === '1';
    sessionStorage.removeItem(TRAIN_WEAK_KEY);
    return asked;
  });
  const job = useJob('train');
  const running = isRunning(job);
  const taken = models.some((m) => m.name === name);
  const nameProblem = !MODEL_NAME.test(name) ? "letters, digits, '-' and '_' (at most 48), starting with a letter or digit" : taken ? 'a model with this name exists' : null;
  const valid = nameProblem === null && Number.isInteger(epochs) && epochs >= 1 && epochs <= 100 && mu >= 0 && mu <= 5 && Number.isInteger(seed) && seed >= 0;
  const start = () =>
    void runJob('train', () => api.startTrain({ name, epochs, mu, seed, useLabels, useWeakLabels }), (status) => {
      const file = (status.result as { file?: unknown } | undefined)?.file;
      onTrained(typeof file === 'string' ? file : null);
      setName(suggestedName());
    });
  return (
    <section className="panel train-form" data-testid="train-form">
      <h2>Train a new model</h2>
      <p className="hint">
        Trains on the open store's questions{store ? ` (${count(store.counts.queries)})` : ''} and its researcher labels
        {store ? ` (${count(store.counts.labels)})` : ''}, which enter the contrastive loss L_d as dependent / independent pairs; where the store's memories carry
        ground-truth factors (a simulated or converted bundle) those train the grouping too (L_a), and outweigh a label that contradicts them. It is validated and its
        thresholds calibrated on the shipped validation split (simulated, disjoint from the training data), and the model lands in your data folder, listed
        above with its metrics once done. It is not made active: use it when you have compared it.
      </p>
      <div className="train-fields">
        <label>
          name
          <input className="field mono" value={name} onChange={(e) => setName(e.target.value)} disabled={running} data-testid="train-name" aria-invalid={nameProblem !== null} />
        </label>
        <label>
          epochs
          <input className="field num" type="number" min={1} max={100} value={epochs} onChange={(e) => setEpochs(e.target.valueAsNumber)} disabled={running} data-testid="train-epochs" />
        </label>
        <label title="weight of the provenance prior b_ij on the attention logits (Eq. 2)">
          μ
          <input className="field num" type="number" min={0} max={5} step={0.1} value={mu} onChange={(e) => setMu(e.target.valueAsNumber)} disabled={running} data-testid="train-mu" />
        </label>
        <label>
          seed
          <input className="field num" type="number" min={0} value={seed} onChange={(e) => setSeed(e.target.valueAsNumber)} disabled={running} />
        </label>
        <label title="train a twin without the labels (same data, same seed) to see what the labels changed">
          <input type="checkbox" checked={useLabels} onChange={(e) => setUseLabels(e.target.checked)} disabled={running} data-testid="train-use-labels" /> use
          the labels
        </label>
        <label title="add the labelling functions' probabilistic labels (the label model's) to L_d, below researcher labels">
          <input type="checkbox" checked={useWeakLabels} onChange={(e) => setUseWeakLabels(e.target.checked)} disabled={running} data-testid="train-use-weak-labels" /> use
          weak labels
        </label>
        <Button variant="primary" onClick={start} busy={running} disabled={!store || !valid || !planAllows} data-testid="train-start">
          {running ? 'Training…' : 'Train'}
        </Button>
      </div>
      {plan.data && <PlanNote plan={plan.data} ack={ack} onAck={setAck} disabled={running} weak={useWeakLabels} />}
      <p className="hint">
        μ = 0 trains the w/o-provenance-prior ablation. To see what the labels changed, train two models with the same settings, one
        without the labels, and compare them above. {nameProblem && <span className="bad-text">Name: {nameProblem}.</span>}
        {!store && <span className="bad-text"> Open a store first.</span>}
      </p>
      <JobPanel kind="train" failureTitle="Training failed" />
      <LossCurve />
    </section>
  );
}
