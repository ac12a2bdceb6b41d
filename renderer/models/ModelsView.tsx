// Models (route /models): the evidence models the workbench can run, which one is active, switching to
// another (then re-analysing the store with it), training a new one on the open store's questions and
// labels, and comparing their validation metrics so the researcher sees what the labels changed.

import { useState } from 'react';
import type { ModelSummary } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { Button, Empty, Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useAction } from '../common/useAction';
import { useFetch } from '../common/useFetch';
import { useActivation } from './activation';
import { activationWarnings } from './activationRisk';
import { LabelEffectPanel } from './LabelEffect';
import { CompareModels } from './CompareModels';
import { ModelList } from './ModelList';
import { ReanalyseNotice } from './ReanalyseNotice';
import { TrainForm } from './TrainForm';
import './models.css';

export function ModelsView() {
  const store = useSession((s) => s.session?.store ?? null);
  const revision = useSession((s) => s.revision);
  const models = useFetch(`models:${revision}`, () => api.models({}));
  const activate = useAction<unknown>();
  const [busyFile, setBusyFile] = useState<string | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  /** A switch waiting for the researcher's word: the candidate is worse on validation, or in-sample. */
  const [pending, setPending] = useState<{ model: ModelSummary; warnings: string[] } | null>(null);

  /** Switches at once when nothing speaks against it; otherwise asks first. */
  const ask = (model: ModelSummary) => {
    const warnings = activationWarnings(model, models.data?.find((m) => m.active));
    if (warnings.length === 0) void use(model);
    else setPending({ model, warnings });
  };

  const use = async (model: ModelSummary) => {
    setPending(null);
    const previous = models.data?.find((m) => m.active)?.name ?? store?.model.name ?? 'the previous model';
    setBusyFile(model.file);
    const info = await activate.run(() => api.activateModel({ file: model.file }));
    setBusyFile(null);
    if (info === undefined) return;
    if (store && store.counts.episodes > 0) useActivation.getState().record(store.path, previous, model.name);
    // The session's store info names the engine's model; refreshing it refetches this list too.
    await useSession.getState().refresh();
  };

  return (
    <div className="models">
      <section className="panel">
        <h2>Evidence models</h2>
        <p className="hint">
          The active model assigns memories to evidence slots in every new analysis and evaluation. Shipped models are read-only; models you train live in
          your data folder.
        </p>
        <ErrorBox title="Could not switch models" error={activate.error} onDismiss={activate.reset} />
        {pending && (
          <div className="activation-warning" role="alertdialog" aria-label={`use ${pending.model.name}?`} data-testid="activation-warning">
            <p>
              <b>Use {pending.model.name}?</b> It may make every new analysis worse than the model in use:
            </p>
            <ul>
              {pending.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
            <Button variant="primary" onClick={() => void use(pending.model)} data-testid="activation-confirm">
              Use it anyway
            </Button>{' '}
            <Button onClick={() => setPending(null)} data-testid="activation-cancel">
              Keep the current model
            </Button>
          </div>
        )}
        {models.error ? (
          <ErrorBox title="Could not list the models" error={models.error} />
        ) : models.data ? (
          models.data.length === 0 ? (
            <Empty>No models found: the engine runs its heuristic stand-in.</Empty>
          ) : (
            <ModelList models={models.data} busyFile={busyFile} fresh={fresh} onUse={ask} />
          )
        ) : (
          <Loading what="the models" />
        )}
      </section>
      {store && <ReanalyseNotice queries={store.counts.queries} inSample={models.data?.find((m) => m.active)?.inSample === true} />}
      <TrainForm models={models.data ?? []} onTrained={setFresh} />
      {models.data && models.data.length > 0 && (
        <section className="panel">
          <h2>Compare</h2>
          <CompareModels models={models.data} />
        </section>
      )}
      {store && models.data && models.data.length > 1 && <LabelEffectPanel models={models.data} fresh={fresh} labels={store.counts.labels} />}
    </div>
  );
}
