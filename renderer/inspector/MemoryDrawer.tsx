// The side drawer: one memory in full (MemoryView), opened by clicking a node, a heatmap row or a memory
// chip. Memories outside the episode (ancestors) are fetched on demand. It never shows the ground-truth
// `factor`: the drawer is a labelling surface ("Label with…"), and a label read off the answer key would
// feed L_d with the truth the model is evaluated against.

import type { Label } from '../../shared/domain';
import type { StepRecord } from '../../shared/episode';
import type { MemoryView } from '../../shared/views';
import { api } from '../api/client';
import { AgentBehaviour } from '../common/AgentBehaviour';
import { ClaimList, ObservedValue } from '../common/MemoryParts';
import { MemoryEpisodes } from '../common/MemoryEpisodes';
import { useFetch } from '../common/useFetch';
import { argmax, fmt } from './derive';
import { PairLabelForm } from './PairLabelForm';
import { slotColor, slotName } from './palette';
import { useInspector } from './store';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="field">
      <dt>{label}</dt>
      <dd>{children ?? <span className="muted">–</span>}</dd>
    </div>
  );
}

function IdList({ ids, onOpen }: { ids: string[]; onOpen: (id: string) => void }) {
  if (ids.length === 0) return <span className="muted">none recorded</span>;
  return (
    <>
      {ids.map((id) => (
        <button type="button" key={id} className="mem-chip" onClick={() => onOpen(id)}>
          {id}
        </button>
      ))}
    </>
  );
}

/** Who a memory can be labelled against: the step's slice first, then the episode's other memories. */
function partnersOf(id: string, step: StepRecord | undefined, memories: Record<string, MemoryView>): string[] {
  const slice = step?.sliceIds ?? [];
  const rest = Object.keys(memories).filter((m) => !slice.includes(m));
  return [...slice, ...rest].filter((m) => m !== id);
}

export function MemoryDrawer({
  memories,
  step,
  labels,
  queryId,
  onLabelsChanged,
  readAgainstRecord,
}: {
  memories: Record<string, MemoryView>;
  step: StepRecord | undefined;
  /** Whether the episode read `observed` against the recorded provenance (its config says so). */
  readAgainstRecord: boolean;
  /** Researcher labels on this episode's pairs, and a callback that refetches them after a change. */
  labels: Array<Label & { id: number }>;
  queryId: string;
  onLabelsChanged(): void;
}) {
  const selected = useInspector((s) => s.selected);
  const select = useInspector((s) => s.select);
  const known = selected ? memories[selected] : undefined;
  // Memories outside the episode (ancestors) are fetched on demand.
  const outside = useFetch(selected && !known ? `memory:${selected}` : null, () => api.memory({ id: selected as string }));
  const fetched = outside.data ?? null;
  const error = outside.error ? (outside.error as Error).message : null;

  if (!selected) return null;
  const m = known ?? (fetched?.id === selected ? fetched : null);
  const i = step ? step.sliceIds.indexOf(selected) : -1;
  const z = i >= 0 ? step?.assignment[i] : undefined;
  const slot = z ? argmax(z) : -1;
  return (
    <aside className="drawer" data-testid="memory-drawer" aria-label={`memory ${selected}`}>
      <div className="drawer-head">
        <h2>{selected}</h2>
        <button type="button" onClick={() => select(null)} aria-label="close" title="close (Esc)">
          ✕
        </button>
      </div>
      {error && <p className="error-text">{error}</p>}
      {!m && !error && <p className="muted">loading…</p>}
      {m && (
        <>
          <blockquote className="drawer-text">{m.text}</blockquote>
          <dl className="fields">
            <Field label="agent">
              {m.agentName ? `${m.agentName} (${m.agent})` : m.agent}
            </Field>
            <Field label="agent's statements">
              <AgentBehaviour agent={m.agent} />
            </Field>
            <Field label="agent reliability">{m.agentReliability !== undefined ? fmt(m.agentReliability) : 'unknown'}</Field>
            <Field label="kind">{m.kind}</Field>
            <Field label="time">{m.time !== undefined ? fmt(m.time) : undefined}</Field>
            <Field label="source_type">{m.sourceType}</Field>
            <Field label="observed">{m.observed !== undefined ? <ObservedValue observed={m.observed} parents={m.parents} readAgainstRecord={readAgainstRecord} /> : undefined}</Field>
            <Field label="pool">{m.pool}</Field>
            {z && (
              <Field label={`at step ${step?.t}`}>
                <span className="slot-chip" style={{ background: slotColor(slot) }}>
                  {slotName(slot)}
                </span>{' '}
                z = {fmt(z[slot], 2)}, κ = {fmt(step?.kappa[i])}
              </Field>
            )}
            {i < 0 && step && <Field label={`at step ${step.t}`}>not in the slice</Field>}
          </dl>
          <h3>Claims</h3>
          <ClaimList claims={m.claims} />
          <h3>Provenance</h3>
          <dl className="fields">
            <Field label="parents">
              <IdList ids={m.parents.map((e) => e.parent)} onOpen={select} />
            </Field>
            <Field label="children">
              <IdList ids={m.children.map((e) => e.child)} onOpen={select} />
            </Field>
          </dl>
          <MemoryEpisodes memoryId={m.id} gold={false} />
          {known && (
            <>
              <h3>Label with…</h3>
              <PairLabelForm
                key={selected}
                memoryId={selected}
                partners={partnersOf(selected, step, memories)}
                memories={memories}
                labels={labels}
                queryId={queryId}
                onChanged={onLabelsChanged}
              />
            </>
          )}
        </>
      )}
    </aside>
  );
}
