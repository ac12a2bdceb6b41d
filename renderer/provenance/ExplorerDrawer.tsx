// The explorer's side drawer: the clicked memory in full (api.memory), its place in the drawing (which
// cascade, how large), and its recorded parents and copies, each a chip that moves to that memory.

import { api } from '../api/client';
import { AgentBehaviour } from '../common/AgentBehaviour';
import { ClaimList, GroundTruthFactor, ObservedValue } from '../common/MemoryParts';
import { MemoryEpisodes } from '../common/MemoryEpisodes';
import { useFetch } from '../common/useFetch';
import { fmt } from '../inspector/derive';
import { cascadeColor } from './colors';
import { useExplorer } from './store';

export interface CascadeInfo {
  /** 0-based cascade index (largest first), and how many memories it holds. */
  component: number;
  size: number;
}

function Field({ label, children }: { label: string; children?: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children ?? <span className="muted">–</span>}</dd>
    </>
  );
}

function Chips({ links, onOpen, testid }: { links: Array<{ id: string; relation?: string }>; onOpen: (id: string) => void; testid: string }) {
  if (links.length === 0) return <span className="muted">none recorded</span>;
  return (
    <span className="pv-chips" data-testid={testid}>
      {links.map(({ id, relation }) => (
        <button type="button" key={id} className="pv-chip" onClick={() => onOpen(id)} title={`show ${id}`}>
          {id}
          {relation && <span className="pv-chip-rel"> {relation}</span>}
        </button>
      ))}
    </span>
  );
}

export function ExplorerDrawer({ cascadeOf, onOpen }: { cascadeOf: (id: string) => CascadeInfo | undefined; onOpen: (id: string) => void }) {
  const selected = useExplorer((s) => s.selected);
  const select = useExplorer((s) => s.select);
  const fetched = useFetch(selected ? `memory:${selected}` : null, () => api.memory({ id: selected as string }));
  const memory = fetched.data ?? null;
  const error = fetched.error ? (fetched.error as Error).message : null;

  if (!selected) return null;
  const m = memory?.id === selected ? memory : null;
  const cascade = cascadeOf(selected);
  return (
    <aside className="pv-drawer" data-testid="explorer-drawer" data-memory-id={selected} aria-label={`memory ${selected}`}>
      <div className="pv-drawer-head">
        <h2>{selected}</h2>
        <button type="button" className="btn link" onClick={() => select(null)} aria-label="close" title="close (Esc)">
          ✕
        </button>
      </div>
      {cascade && (
        <p className="pv-drawer-cascade">
          <span className="pv-swatch" style={{ background: cascadeColor(cascade.component) }} /> cascade {cascade.component + 1} ·{' '}
          {cascade.size} memories
        </p>
      )}
      {error && <p className="pv-error">{error}</p>}
      {!m && !error && <p className="muted">loading…</p>}
      {m && (
        <>
          <blockquote className="pv-drawer-text" data-testid="explorer-drawer-text">
            {m.text}
          </blockquote>
          <dl className="pv-fields">
            <Field label="agent">{m.agentName ? `${m.agentName} (${m.agent})` : m.agent}</Field>
            <Field label="agent's statements">
              <AgentBehaviour agent={m.agent} />
            </Field>
            <Field label="agent reliability">{m.agentReliability !== undefined ? fmt(m.agentReliability) : 'unknown'}</Field>
            <Field label="kind">{m.kind}</Field>
            <Field label="time">{m.time !== undefined ? fmt(m.time) : undefined}</Field>
            <Field label="source_type">{m.sourceType}</Field>
            <Field label="observed">{m.observed !== undefined ? <ObservedValue observed={m.observed} parents={m.parents} /> : undefined}</Field>
            <Field label="pool">{m.pool}</Field>
          </dl>
          <h3>Claims</h3>
          <ClaimList claims={m.claims} />
          <h3>Provenance</h3>
          <dl className="pv-fields">
            <Field label="derived from">
              <Chips links={m.parents.map((e) => ({ id: e.parent, relation: e.relation }))} onOpen={onOpen} testid="explorer-parents" />
            </Field>
            <Field label="derived into">
              <Chips links={m.children.map((e) => ({ id: e.child, relation: e.relation }))} onOpen={onOpen} testid="explorer-children" />
            </Field>
          </dl>
          <GroundTruthFactor factor={m.factor} />
          <MemoryEpisodes memoryId={m.id} />
        </>
      )}
    </aside>
  );
}
