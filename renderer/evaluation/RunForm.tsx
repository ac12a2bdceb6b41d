// Starting an evaluation: which methods to score on the open store, and the job's progress. When the
// run finishes it is shown (if the evaluation view is still the one on screen).

import { useState } from 'react';
import { navigate } from 'wouter/use-hash-location';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { Button } from '../common/controls';
import { isRunning, runJob, useJob } from '../common/jobs';
import { JobPanel } from '../common/ProgressBar';
import { ErrorBox } from '../common/ErrorBox';
import { useFetch } from '../common/useFetch';
import { type EvalMethod, GROUP_LABEL, GROUPS } from './methods';

const NO_METHODS: readonly EvalMethod[] = [];

function runIdOf(result: unknown): number | null {
  const id = (result as { runId?: unknown } | undefined)?.runId;
  return typeof id === 'number' ? id : null;
}

export function RunForm({ hasStore }: { hasStore: boolean }) {
  const listed = useFetch('evalMethods', () => api.evalMethods({}));
  const revision = useSession((s) => s.revision);
  const models = useFetch(`models:${revision}`, () => api.models({}));
  // A second model to score beside cama (cama_against), for the paired comparison; '' for none.
  const [against, setAgainst] = useState('');
  const methods = listed.data ?? NO_METHODS;
  // Every offline method is chosen until the user unticks one; an LLM method (it costs calls) and a
  // diagnostic (it needs ground-truth factors) only once ticked.
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(() => new Set());
  const [optedIn, setOptedIn] = useState<ReadonlySet<string>>(() => new Set());
  const llmNames = new Set(methods.filter((m) => m.llm).map((m) => m.name));
  const diagnostics = methods.filter((m) => m.diagnostic);
  const inputAblations = methods.filter((m) => m.inputAblation);
  const optIn = new Set([...llmNames, ...diagnostics.map((m) => m.name), ...inputAblations.map((m) => m.name)]);
  const chosen = new Set(methods.map((m) => m.name).filter((n) => (optIn.has(n) ? optedIn.has(n) : !unticked.has(n))));
  const job = useJob('eval');
  const running = isRunning(job);
  const toggle = (name: string, on: boolean) => {
    if (optIn.has(name))
      setOptedIn((prev) => {
        const next = new Set(prev);
        if (on) next.add(name);
        else next.delete(name);
        return next;
      });
    else
      setUnticked((prev) => {
        const next = new Set(prev);
        if (on) next.delete(name);
        else next.add(name);
        return next;
      });
  };
  const checkbox = (m: EvalMethod) => (
    <label key={m.name} className="method" title={m.description}>
      <input type="checkbox" checked={chosen.has(m.name)} onChange={(e) => toggle(m.name, e.target.checked)} disabled={running} data-testid={`eval-method-${m.name}`} />
      <span className="mono">{m.name}</span>
    </label>
  );
  const start = () => {
    // Keep the table's order (baselines first), whatever order the boxes were ticked in.
    const names = methods.map((m) => m.name).filter((n) => chosen.has(n));
    void runJob('eval', () => api.startEval({ methods: names, ...(against ? { against } : {}) }), (status) => {
      const id = runIdOf(status.result);
      // A run belongs to the store it ran on: show it only if that store is still the open one.
      const current = useSession.getState().session?.store?.path;
      if (id !== null && status.storePath === current && window.location.hash.startsWith('#/eval')) navigate(`/eval/${id}`);
    });
  };
  return (
    <section className="panel run-form">
      <h2>New evaluation</h2>
      {listed.error ? <ErrorBox title="Could not list the methods" error={listed.error} /> : null}
      {GROUPS.map((g) => (
        <fieldset key={g} className="method-group">
          <legend>{GROUP_LABEL[g]}</legend>
          {methods.filter((m) => m.group === g && !m.llm && !m.diagnostic && !m.inputAblation).map(checkbox)}
        </fieldset>
      ))}
      {diagnostics.length > 0 && (
        <fieldset className="method-group" data-testid="eval-diagnostics">
          <legend>diagnostics</legend>
          {diagnostics.map(checkbox)}
          <p className="hint">
            Not methods anyone could run: both put each memory in the slot of its ground-truth factor. oracle_slots is cama with only its slots replaced, so its
            lead over cama is what the model&apos;s grouping of copies costs; oracle_factors has nothing else learned either. They need a store whose memories carry
            ground-truth factors (simulated or converted bundles) and refuse one without.
          </p>
        </fieldset>
      )}
      {inputAblations.length > 0 && (
        <fieldset className="method-group" data-testid="eval-input-ablations">
          <legend>input groups zeroed</legend>
          {inputAblations.map(checkbox)}
          <p className="hint">
            cama again with one group of the evidence model&apos;s inputs set to zero at inference (kind, text, stance, provenance, metadata), on the same slices:
            its lead column is what the model&apos;s decisions owe to that group. Each costs a whole cama run.
          </p>
        </fieldset>
      )}
      {llmNames.size > 0 && (
        <fieldset className="method-group" data-testid="eval-llm-methods">
          <legend>LLM methods</legend>
          {methods.filter((m) => m.llm).map(checkbox)}
          <p className="hint">
            These ask the LLM set on the Home page: every slice costs calls and tokens (madam_rag up to 2K + 1 calls per slice) and, on a hosted endpoint, money.
            Answers are cached in the store, so a re-run asks only for what is new. The run's page shows what they cost.
          </p>
        </fieldset>
      )}
      <label className="run-form-against" title="cama with another evidence model, scored on the same slices as cama_against: the run's page then gives cama's lead over it question for question, with its 95% interval (is one model better, or only luckier on these questions?)">
        compare with
        <select value={against} onChange={(e) => setAgainst(e.target.value)} disabled={running} data-testid="eval-against">
          <option value="">no other model</option>
          {(models.data ?? [])
            .filter((m) => !m.active)
            .map((m) => (
              <option key={m.name} value={m.name}>
                {m.name} ({m.origin})
              </option>
            ))}
          <option value="heuristic">heuristic provider</option>
        </select>
      </label>
      <div className="run-form-actions">
        <Button variant="link" onClick={() => setUnticked(new Set())} disabled={running}>
          all
        </Button>
        <Button
          variant="link"
          onClick={() => {
            setUnticked(new Set(methods.map((m) => m.name)));
            setOptedIn(new Set());
          }}
          disabled={running}
        >
          none
        </Button>
        <Button variant="primary" busy={running} disabled={!hasStore || chosen.size === 0} onClick={start} data-testid="eval-run-button">
          {running ? 'Evaluating…' : 'Run evaluation'}
        </Button>
      </div>
      {!hasStore && <p className="hint">Open a store with gold answers first.</p>}
      <JobPanel kind="eval" failureTitle="Evaluation failed" />
    </section>
  );
}
