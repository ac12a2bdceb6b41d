// The world: agents, subjects, keys with a changing truth, and the memories agents write about them.
// Independent observations are factors; relays, paraphrases and summaries inherit their parent's factor;
// a stale or biased source is copied widely; provenance is recorded only sometimes; wording is shared
// by some independent observers and changed by some copies.

import type { SimulatorConfig } from './config';
import {
  ATTRIBUTES,
  type AttributeSpec,
  CHATTER_TEMPLATES,
  fill,
  OBSERVATION_TEMPLATES,
  PARAPHRASE_TEMPLATES,
  SUBJECT_NOUNS,
  SUBJECT_PREFIXES,
  SUMMARY_TEMPLATES,
} from './lexicon';
import { Random } from './random';
import type { AgentRow, ClaimRow, EdgeRow, Intent, KeyCase, MemoryRow } from './rows';

type Role = 'observer' | 'relay' | 'summariser';

interface SimAgent {
  row: AgentRow;
  role: Role;
  /** True probability of reporting the truth (observers). */
  reliability: number;
  sourceType: string;
}

/** How a memory words its claim, carried from parent to child so copies can keep or change it. */
interface Wording {
  attrSurface: string;
}

const OBSERVER_SOURCES = ['sensor', 'tool', 'user', 'web'] as const;
const OBSERVER_SOURCE_WEIGHTS = [0.4, 0.25, 0.2, 0.15];

export class WorldBuilder {
  readonly agents: SimAgent[] = [];
  readonly memories: MemoryRow[] = [];
  readonly memoryById = new Map<string, MemoryRow>();
  readonly edges: EdgeRow[] = [];
  readonly keys: KeyCase[] = [];
  private readonly wording = new Map<string, Wording>();
  private readonly agentIndex = new Map<string, SimAgent>();
  private readonly roleIndex = new Map<Role, SimAgent[]>();
  private readonly keysBySubject = new Map<string, KeyCase[]>();
  private nextMemory = 1;
  private nextFactor = 1;

  constructor(
    readonly config: SimulatorConfig,
    private readonly rng: Random,
  ) {}

  build(): void {
    this.makeAgents(this.rng.fork('agents'));
    const subjects = this.makeSubjects(this.rng.fork('subjects'));
    this.makeKeys(subjects, this.rng.fork('keys'));
    const sources = this.rng.fork('sources');
    for (const key of this.keys) this.makeSources(key, sources);
    const derivations = this.rng.fork('derivations');
    for (const key of this.keys) this.makeDerivations(key, derivations);
    const extras = this.rng.fork('extras');
    for (const key of this.keys) if (extras.chance(this.config.queries.futureRate)) this.makeFuture(key, extras);
    for (const subject of subjects) this.makeChatter(subject, extras);
  }

  observers(): SimAgent[] {
    return this.byRole('observer');
  }

  agentById(id: string): SimAgent {
    const a = this.agentIndex.get(id);
    if (!a) throw new Error(`simulator: no agent ${id}`);
    return a;
  }

  private byRole(role: Role): SimAgent[] {
    let list = this.roleIndex.get(role);
    if (!list) {
      list = this.agents.filter((a) => a.role === role);
      this.roleIndex.set(role, list);
    }
    return list;
  }

  // --- agents, subjects, keys ---------------------------------------------------------------------

  private makeAgents(rng: Random): void {
    const { agents } = this.config;
    const add = (role: Role, prefix: string, n: number, reliability: readonly [number, number]): void => {
      for (let i = 1; i <= n; i++) {
        const id = `${prefix}-${String(i).padStart(2, '0')}`;
        const r = round(rng.uniform(reliability[0], reliability[1]), 2);
        const sourceType = role === 'observer' ? (OBSERVER_SOURCES[rng.weighted(OBSERVER_SOURCE_WEIGHTS)] as string) : 'agent';
        const row: AgentRow = { id, name: `${capitalise(prefix)} ${i}` };
        if (rng.chance(agents.reliabilityKnownRate)) row.reliability = r;
        const agent: SimAgent = { row, role, reliability: r, sourceType };
        this.agents.push(agent);
        this.agentIndex.set(id, agent);
      }
    };
    add('observer', 'scout', agents.observers, agents.observerReliability);
    add('relay', 'relay', agents.relays, agents.relayReliability);
    add('summariser', 'digest', agents.summarisers, agents.relayReliability);
  }

  private makeSubjects(rng: Random): string[] {
    const combos = rng.shuffle(SUBJECT_PREFIXES.flatMap((p) => SUBJECT_NOUNS.map((n) => `${p} ${n}`)));
    const out: string[] = [];
    for (let i = 0; out.length < this.config.world.subjects; i++) {
      const base = combos[i % combos.length] as string;
      const round = Math.floor(i / combos.length);
      out.push(round === 0 ? base : `${base} ${round + 1}`);
    }
    return out;
  }

  private makeKeys(subjects: readonly string[], rng: Random): void {
    const { world, queries } = this.config;
    const H = world.horizon;
    const all: Array<{ subject: string; attribute: AttributeSpec }> = [];
    for (const subject of subjects) {
      for (const attribute of rng.shuffle(ATTRIBUTES).slice(0, world.attributesPerSubject)) all.push({ subject, attribute });
    }
    const order = rng.shuffle(all);
    order.forEach(({ subject, attribute }, i) => {
      const truth = rng.pick(attribute.values);
      const u = rng.float();
      const intent: Intent =
        u < queries.insufficientRate ? 'insufficient' : u < queries.insufficientRate + queries.minorityRate ? 'minority' : 'plain';
      const keyCase: KeyCase = {
        subject,
        attribute,
        previous: rng.pickOther(attribute.values, truth),
        truth,
        changeTime: round(rng.uniform(0.2 * H, 0.45 * H), 1),
        queryTime: round(rng.uniform(0.6 * H, 0.95 * H), 1),
        intent,
        queried: i < queries.count,
        sources: { truth: [], noise: [], flood: [] },
      };
      this.keys.push(keyCase);
      this.keysBySubject.set(subject, [...(this.keysBySubject.get(subject) ?? []), keyCase]);
    });
  }

  // --- independent sources (one factor each) -----------------------------------------------------

  private makeSources(key: KeyCase, rng: Random): void {
    const { evidence } = this.config;
    const observers = rng.shuffle(this.observers());
    let next = 0;
    const observer = (): SimAgent => observers[next++ % observers.length] as SimAgent;
    const offQuery = key.intent === 'insufficient';

    for (let i = rng.count(evidence.truthSources); i > 0; i--) {
      const a = observer();
      const value = rng.chance(a.reliability) ? key.truth : rng.pickOther(key.attribute.values, key.truth);
      const time = rng.uniform(key.changeTime, key.queryTime);
      key.sources.truth.push(this.observe(key, a, value, time, offQuery, rng));
    }
    for (let i = rng.count(evidence.noiseSources); i > 0; i--) {
      const time = rng.uniform(0, key.queryTime);
      key.sources.noise.push(this.observe(key, observer(), rng.pickOther(key.attribute.values, key.truth), time, false, rng));
    }
    if (key.intent !== 'plain') {
      for (let i = rng.count(evidence.floodSources); i > 0; i--) {
        const stale = rng.chance(evidence.staleRate);
        const value = stale ? key.previous : rng.pickOther(key.attribute.values, key.truth);
        const time = stale ? rng.uniform(0, key.changeTime) : rng.uniform(key.changeTime, key.queryTime);
        key.sources.flood.push(this.observe(key, observer(), value, time, rng.chance(evidence.hiddenSourceRate), rng));
      }
    }
  }

  /** A direct observation: a new factor. `offQuery` words the attribute with a synonym. */
  observe(key: KeyCase, agent: SimAgent, value: string, time: number, offQuery: boolean, rng: Random, pool?: 'ind'): MemoryRow {
    const { evidence } = this.config;
    const attrSurface = offQuery ? rng.pick(key.attribute.synonyms) : key.attribute.name;
    const template = rng.chance(evidence.sharedWordingRate) ? OBSERVATION_TEMPLATES[0] : rng.pick(OBSERVATION_TEMPLATES.slice(1));
    const factor = `f${this.nextFactor++}`;
    const m = this.memory({
      agent: agent.row.id,
      text: fill(template, { subject: key.subject, attr: attrSurface, value }),
      kind: 'observation',
      time,
      claims: [{ subject: key.subject, attribute: key.attribute.name, value, factor }],
      pool,
    });
    this.setMetadata(m, { observed: true, source_type: agent.sourceType }, rng);
    this.wording.set(m.id, { attrSurface });
    return m;
  }

  // --- derivations (inherit the parent's factor) -------------------------------------------------

  private makeDerivations(key: KeyCase, rng: Random): void {
    const { evidence } = this.config;
    for (const source of key.sources.flood) this.derive(key, source, rng.count(evidence.copiesPerFloodSource), rng);
    for (const source of [...key.sources.truth, ...key.sources.noise]) this.derive(key, source, rng.count(evidence.copiesPerTruthSource), rng);
  }

  /** `n` memories derived from `source` (copies of copies allowed); returns them. */
  derive(key: KeyCase, source: MemoryRow, n: number, rng: Random, opts: { pool?: 'corr'; provenanceRate?: number } = {}): MemoryRow[] {
    const { evidence } = this.config;
    const made: MemoryRow[] = [];
    for (let k = 0; k < n; k++) {
      const parent = made.length > 0 && rng.chance(evidence.chainRate) ? rng.pick(made) : source;
      const kind = ['copy', 'summary', 'paraphrase'][
        rng.weighted([evidence.copyRate, evidence.summaryRate, Math.max(0, 1 - evidence.copyRate - evidence.summaryRate)])
      ] as 'copy' | 'summary' | 'paraphrase';
      const child = this.deriveOne(key, parent, kind, rng, opts.pool);
      for (const p of child.parents) {
        if (rng.chance(opts.provenanceRate ?? evidence.provenanceRate)) this.edges.push({ child: child.memory.id, parent: p, relation: kind });
      }
      made.push(child.memory);
    }
    return made;
  }

  private deriveOne(
    key: KeyCase,
    parent: MemoryRow,
    kind: 'copy' | 'summary' | 'paraphrase',
    rng: Random,
    pool?: 'corr',
  ): { memory: MemoryRow; parents: string[] } {
    const { evidence } = this.config;
    const claim = parent.claims.find((c) => c.subject === key.subject && c.attribute === key.attribute.name) as ClaimRow;
    // The parent's wording is this key's only when the parent was written about this key (a summary
    // written for another key words that key's attribute, not this one).
    const own = parent.claims[0];
    const aboutThisKey = own !== undefined && own.subject === key.subject && own.attribute === key.attribute.name;
    const parentWording = (aboutThisKey ? this.wording.get(parent.id) : undefined) ?? { attrSurface: key.attribute.name };
    const summariser = kind === 'summary' && this.agents.some((a) => a.role === 'summariser');
    const agent = rng.pick(this.byRole(summariser ? 'summariser' : 'relay'));
    const parents = [parent.id];
    // A verbatim copy repeats every claim of its parent (a copied merged summary keeps both facts).
    const claims: ClaimRow[] = kind === 'copy' ? parent.claims.map((c) => ({ ...c })) : [{ ...claim }];
    let earliest = parent.time;
    let text: string;
    let attrSurface = parentWording.attrSurface;
    if (kind === 'copy') {
      text = parent.text;
    } else {
      if (rng.chance(evidence.rewordRate)) attrSurface = attrSurface === key.attribute.name ? rng.pick(key.attribute.synonyms) : key.attribute.name;
      const slots = { subject: key.subject, attr: attrSurface, value: claim.value, source: this.agentById(parent.agent).row.name };
      if (kind === 'paraphrase') {
        text = fill(rng.pick(PARAPHRASE_TEMPLATES), slots);
      } else {
        const merged = rng.chance(evidence.mergeRate) ? this.mergeCandidate(key, rng) : undefined;
        const more = merged ? `; ${merged.attribute} ${merged.claim.value}` : '';
        if (merged) {
          claims.push({ ...merged.claim });
          parents.push(merged.memory.id);
          earliest = Math.max(earliest, merged.memory.time);
        }
        text = fill(rng.pick(SUMMARY_TEMPLATES), { ...slots, more });
      }
    }
    // Written after everything it derives from, and before the question is asked.
    const time = rng.uniform(earliest, Math.max(earliest, key.queryTime));
    const memory = this.memory({ agent: agent.row.id, text, kind: kind === 'summary' ? 'summary' : 'relay', time, claims, pool });
    const copied = rng.chance(evidence.copiedMetadataRate);
    this.setMetadata(memory, copied ? { observed: parent.observed, source_type: parent.source_type } : { observed: false, source_type: 'agent' }, rng);
    this.wording.set(memory.id, { attrSurface });
    return { memory, parents };
  }

  /** A fact about another attribute of the same subject, for a summary to merge. */
  private mergeCandidate(key: KeyCase, rng: Random): { memory: MemoryRow; claim: ClaimRow; attribute: string } | undefined {
    const others = (this.keysBySubject.get(key.subject) ?? []).filter((k) => k !== key);
    if (others.length === 0) return undefined;
    const other = rng.pick(others);
    const pool = [...other.sources.truth, ...other.sources.noise, ...other.sources.flood].filter((m) => m.time <= key.queryTime);
    if (pool.length === 0) return undefined;
    const memory = rng.pick(pool);
    const claim = memory.claims[0] as ClaimRow;
    return { memory, claim, attribute: other.attribute.name };
  }

  // --- after the query, and chatter --------------------------------------------------------------

  /** The key changes again after the query time; observers report the newer value (as_of must hide it). */
  private makeFuture(key: KeyCase, rng: Random): void {
    const value = rng.pickOther(key.attribute.values, key.truth);
    const observers = rng.shuffle(this.observers());
    for (let i = 0; i < 2; i++) {
      const time = rng.uniform(key.queryTime + 0.5, this.config.world.horizon * 1.1);
      this.observe(key, observers[i % observers.length] as SimAgent, value, time, false, rng);
    }
  }

  private makeChatter(subject: string, rng: Random): void {
    for (let i = rng.count(this.config.world.distractorsPerSubject); i > 0; i--) {
      const agent = rng.pick(this.agents);
      const m = this.memory({
        agent: agent.row.id,
        text: fill(rng.pick(CHATTER_TEMPLATES), { subject }),
        kind: 'note',
        time: rng.uniform(0, this.config.world.horizon),
        claims: [],
      });
      this.setMetadata(m, { observed: agent.role === 'observer', source_type: agent.sourceType }, rng);
    }
  }

  // --- rows ----------------------------------------------------------------------------------------

  private memory(fields: Omit<MemoryRow, 'id' | 'factor'> & { pool?: 'corr' | 'ind' }): MemoryRow {
    const factors = [...new Set(fields.claims.map((c) => c.factor))];
    const m: MemoryRow = { id: `m${this.nextMemory++}`, ...fields, time: round(fields.time, 2) };
    if (fields.pool === undefined) delete m.pool;
    if (factors.length > 0) m.factor = factors.join('|');
    this.memories.push(m);
    this.memoryById.set(m.id, m);
    return m;
  }

  private setMetadata(m: MemoryRow, meta: { observed?: boolean; source_type?: string }, rng: Random): void {
    if (rng.chance(this.config.evidence.missingMetadataRate)) return;
    if (meta.observed !== undefined) m.observed = meta.observed;
    if (meta.source_type !== undefined) m.source_type = meta.source_type;
  }
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
