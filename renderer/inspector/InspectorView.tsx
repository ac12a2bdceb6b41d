// The episode inspector (route /episode/:id): one CAMA episode stepped through t = 0..T. A scrubber (and
// ←/→ anywhere outside inputs) selects step t; every panel below shows that step: (a) the assignment
// heatmap with N_eff, (b) the provenance graph, (c) the arbitration gauge, (d) the recovery timeline, and
// the what-if. Everything is derived from one EpisodeView fetched from the backend.

import './inspector.css';
import { useCallback, useEffect, useLayoutEffect, useState } from 'react';
import type { EpisodeView } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { ArbitrationPanel } from './ArbitrationPanel';
import { AssignmentHeatmap } from './AssignmentHeatmap';
import { arrivedMemories } from './derive';
import { EpisodeHeader } from './EpisodeHeader';
import { stepWithStated } from './findings';
import { MemoryDrawer } from './MemoryDrawer';
import { ProvenanceGraph } from './ProvenanceGraph';
import { RecoveryTimeline } from './RecoveryTimeline';
import { StepScrubber } from './StepScrubber';
import { episodeIdFromHash, readStepParam, writeStepParam } from './stepParam';
import { useInspector } from './store';
import { WhatIfPanel } from './WhatIfPanel';

/** Inputs that use ←/→ themselves (text fields, selects, the step slider); checkboxes and buttons do not. */
const ARROW_FREE_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset']);
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !ARROW_FREE_INPUTS.has(target.type);
  return target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

/**
 * `linkedStep`: the step a followed link named (stepParam.ts captures it when the hashchange fires); the
 * address's own `?t=` is read only when no link has named one, as on a page load.
 */
export function InspectorView({ episodeId, linkedStep = null }: { episodeId: number; linkedStep?: number | null }) {
  const id = Number.isInteger(episodeId) && episodeId > 0 ? episodeId : episodeIdFromHash();
  const revision = useSession((s) => s.revision);
  const [view, setView] = useState<EpisodeView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [t, setTState] = useState<number>(() => linkedStep ?? readStepParam() ?? 0);
  const [shownId, setShownId] = useState(id);
  if (shownId !== id) {
    // Another episode in the same route: back to its first step, without the previous one's data.
    setShownId(id);
    setView(null);
    setTState(0);
  }

  // A different episode starts clean: no highlight, no drawer, no what-if edits.
  useEffect(() => {
    useInspector.getState().reset();
    return () => useInspector.getState().reset();
  }, [id]);
  useEffect(() => () => writeStepParam(null), []);

  useEffect(() => {
    if (id === null) return;
    let live = true;
    setError(null);
    api
      .episode({ id })
      .then((v) => {
        if (!live) return;
        setView(v);
        setTState((cur) => Math.min(Math.max(0, cur), Math.max(0, v.episode.steps.length - 1)));
      })
      .catch((err: unknown) => live && setError((err as Error).message));
    return () => {
      live = false;
    };
  }, [id, revision]);

  const last = view ? view.episode.steps.length - 1 : 0;
  const setT = useCallback(
    (next: number) => setTState(Math.min(Math.max(0, Math.round(next)), Math.max(0, last))),
    [last],
  );
  // In the commit itself, not after paint: a write left pending could land after a followed link had
  // changed the address, and replace the step it names.
  useLayoutEffect(() => {
    if (view) writeStepParam(t);
  }, [t, view]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (e.key === 'ArrowLeft') {
        e.preventDefault();
        setTState((cur) => Math.max(0, cur - 1));
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        setTState((cur) => Math.min(Math.max(0, last), cur + 1));
      } else if (e.key === 'Escape') {
        const s = useInspector.getState();
        if (s.pendingParent) s.setPendingParent(null);
        else s.select(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [last]);

  if (id === null) return <section className="inspector-msg">No episode id in the address.</section>;
  if (error) return <section className="inspector-msg error-text" data-testid="inspector-error">Could not load episode {id}: {error}</section>;
  if (!view) return <section className="inspector-msg muted">Loading episode {id}…</section>;
  const steps = view.episode.steps;
  // With what each memory states, as the header's vote counts it: the panels' backers are the vote's ballots.
  const step = stepWithStated(view, t);
  if (!step) return <section className="inspector-msg">Episode {id} has no steps.</section>;
  const tauN = num(view.episode.config.tauN);
  const tauH = num(view.episode.config.tauH);
  const thresholds = { tauN, tauH };
  const gold = view.query.answer ?? null;
  const arrived = new Set(arrivedMemories(steps, t));

  return (
    <div className="inspector" data-testid="inspector">
      <EpisodeHeader view={view} />
      <StepScrubber steps={steps} t={t} onChange={setT} />
      <div className="insp-grid">
        <div className="insp-col">
          <AssignmentHeatmap step={step} memories={view.memories} arrived={arrived} tauN={tauN} tauH={tauH} />
          <ArbitrationPanel step={step} gold={gold} thresholds={thresholds} />
        </div>
        <div className="insp-col">
          <ProvenanceGraph view={view} t={t} />
          <WhatIfPanel episodeId={view.episode.id} step={step} memories={view.memories} gold={gold} thresholds={thresholds} arrived={arrived} />
        </div>
      </div>
      <RecoveryTimeline steps={steps} t={t} onPick={setT} tauN={tauN} tauH={tauH} memories={view.memories} />
      <MemoryDrawer
        memories={view.memories}
        step={step}
        labels={view.labels}
        queryId={view.query.id}
        readAgainstRecord={view.episode.config.observedReading === 'against-record'}
        // A label changes the store: the session refresh bumps the revision, which refetches this episode.
        onLabelsChanged={() => void useSession.getState().refresh()}
      />
    </div>
  );
}
