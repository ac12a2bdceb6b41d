// Models (route /models): the evidence models the workbench can run, which one is active, switching to
// another (then re-analysing the store with it), training a new one on the open store's questions and
// labels, and comparing their validation metrics so the researcher sees what the labels changed.

import { useState } from 'react';
import type { ModelSummary } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../app/session';
import { Empty, Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useAction } from '../common/useAction';
import { useFetch } from '../common/useFetch';
import { useActivation } from './activation';
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

  const use = async (model: ModelSummary) => {
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
        {models.error ? (
          <ErrorBox title="Could not list the models" error={models.error} />
        ) : models.data ? (
          models.data.length === 0 ? (
            <Empty>No models found: the engine runs its heuristic stand-in.</Empty>
          ) : (
            <ModelList models={models.data} busyFile={busyFile} fresh={fresh} onUse={(m) => void use(m)} />
          )
        ) : (
          <Loading what="the models" />
        )}
      </section>
      {store && <ReanalyseNotice queries={store.counts.queries} />}
      <TrainForm models={models.data ?? []} onTrained={setFresh} />
      {models.data && models.data.length > 0 && (
        <section className="panel">
          <h2>Compare</h2>
          <CompareModels models={models.data} />
        </section>
      )}
    </div>
  );
}
