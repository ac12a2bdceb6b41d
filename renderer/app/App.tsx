// The workbench's frame: navigation, the open store, and the view for the current route.

import { useEffect } from 'react';
import type { WorkbenchEvent } from '../../shared/views';
import { runJob, useJobs } from '../common/jobs';
import { Link, Route, Router, Switch, useLocation } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { useShallow } from 'zustand/react/shallow';
import { BrowserView } from '../browser/BrowserView';
import { EvalView } from '../evaluation/EvalView';
import { HomeView } from '../home/HomeView';
import { InspectorView } from '../inspector/InspectorView';
import { useStepLink } from '../inspector/stepParam';
import { LabelsView } from '../labels/LabelsView';
import { LabellingView } from '../labelling/LabellingView';
import { ModelsView } from '../models/ModelsView';
import { DiffView } from '../diff/DiffView';
import { ProvenanceView } from '../provenance/ProvenanceView';
import { useSession } from '../common/session';

declare global {
  interface Window {
    /** Electron only: menu actions the main process reports. */
    workbenchEvents?: { subscribe(listener: (event: WorkbenchEvent) => void): () => void };
  }
}

/** Every running job, wherever it was started (a view, or the Electron menu). */
function JobIndicator() {
  // useShallow: the filtered list is a new array on every store change; compare it item by item.
  const running = useJobs(useShallow((s) => Object.values(s.jobs).filter((j) => j?.status?.state === 'running' || j?.starting)));
  if (running.length === 0) return null;
  return (
    <span className="nav-jobs" data-testid="job-indicator">
      {running.map((j) => {
        const st = j?.status;
        const pct = st && st.total > 0 ? Math.round((100 * st.done) / st.total) : null;
        return (
          <span key={st?.id ?? 'starting'} className="nav-job">
            {st ? `${st.message}${pct !== null ? ` ${pct}%` : '…'}` : 'starting…'}
          </span>
        );
      })}
    </span>
  );
}

function Nav() {
  const [location] = useLocation();
  const store = useSession((s) => s.session?.store ?? null);
  const item = (href: string, label: string) => (
    <Link href={href} className={location === href || (href !== '/' && location.startsWith(href)) ? 'nav-item active' : 'nav-item'}>
      {label}
    </Link>
  );
  return (
    <header className="nav">
      <span className="brand">Arbitration workbench</span>
      {item('/', 'Home')}
      {item('/browser', 'Queries')}
      {item('/provenance', 'Provenance')}
      {item('/eval', 'Evaluation')}
      {item('/labels', 'Labels')}
      {item('/labelling', 'Labelling functions')}
      {item('/models', 'Models')}
      <JobIndicator />
      <span className="nav-store" data-testid="open-store" title={store?.path}>
        {store ? `${store.name} · ${store.counts.memories} memories · ${store.counts.queries} queries` : 'no store open'}
      </span>
    </header>
  );
}

export function App() {
  const refresh = useSession((s) => s.refresh);
  const error = useSession((s) => s.error);
  // A link to a step (`#/episode/7?t=2`) opens the inspector afresh at that step, even on the episode already open.
  const stepLink = useStepLink();
  useEffect(() => {
    void refresh();
  }, [refresh]);
  // In Electron, the menu can open stores and start imports: follow them.
  useEffect(
    () =>
      window.workbenchEvents?.subscribe((event) => {
        if (event.type === 'store') void refresh();
        else void runJob(event.job.kind, async () => event.job);
      }),
    [refresh],
  );
  return (
    <Router hook={useHashLocation}>
      <Nav />
      {error && <div className="banner error">{error}</div>}
      <main className="main">
        <Switch>
          <Route path="/">
            <HomeView />
          </Route>
          <Route path="/browser">
            <BrowserView />
          </Route>
          <Route path="/provenance">
            <ProvenanceView />
          </Route>
          <Route path="/episode/:id">
            {(params) => <InspectorView key={stepLink.key} linkedStep={stepLink.t} episodeId={Number.parseInt(params.id ?? '', 10)} />}
          </Route>
          <Route path="/eval">
            <EvalView />
          </Route>
          <Route path="/eval/:id">{(params) => <EvalView runId={Number.parseInt(params.id ?? '', 10)} />}</Route>
          <Route path="/labels">
            <LabelsView />
          </Route>
          <Route path="/labelling">
            <LabellingView />
          </Route>
          <Route path="/models">
            <ModelsView />
          </Route>
          <Route path="/diff/:spec?">
            <DiffView />
          </Route>
          <Route>
            <p>Nothing here. <Link href="/">Home</Link></p>
          </Route>
        </Switch>
      </main>
    </Router>
  );
}
