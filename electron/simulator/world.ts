// The world: agents, subjects, keys with a changing truth, and the memories agents write about them.
// Independent observations are factors; relays, paraphrases and summaries inherit their parent's factor;
// a stale or biased source is copied widely; provenance is recorded only sometimes.
//
// Nothing a real agent would not write marks a derivation (DESIGN.md section 5): wording comes from many
// families (wording.ts), an agent writes in its own habitual style, derivation markers are used by
// originals too and left out by many copies, and metadata lies at set rates (copies presented as
// observations, observations filed as notes). What a copy does share with its source is the source's
// details (time, place, document, witness) and often its words, as copies do.

import type { SimulatorConfig } from './config';
import type { Random } from '../common/random';
import type { AgentRow, ClaimRow, EdgeRow, Intent, KeyCase, MemoryRow } from './rows';
import {
  type AttributeSpec,
  DOMAINS,
  FACILITY_NOUNS,
  FACILITY_PREFIXES,
  FIRST_NAMES,
  LAST_NAMES,
  ORG_FOUNDERS,
  ORG_SUFFIXES,
  ORGANISATIONS,
  COUNTRIES,
  CITIES,
  type SubjectKind,
  statementsOf,
} from './vocab';
import { CHATTER, copyMarker, type Fact, family, freshDetail, freshDetails, originalMarker, type Trimmings } from './wording';

type Role = 'observer' | 'relay' | 'summariser';

interface SimAgent {
  row: AgentRow;
  role: Role;
  /** True probability of reporting the truth (observers). */
  reliability: number;
  sourceType: string;
  /** The wording family this agent habitually writes in. */
  style: string;
}

/** How a memory words its claim, carried from parent to child so copies can keep or change it. */
interface Wording {
  attrSurface: string;
  details: string[];
}

export interface Subject {
  name: string;
  kind: SubjectKind;
}

/** How a key not drawn from the vocabularies states its facts (e.g. a real question and its answer). */
export type FactMaker = (value: string, onQuery: boolean, house: boolean, rng: Random) => Fact;

/**
 * A key given from outside (the SituatedQA converter): a real question as subject, its answer now and
 * before, the values honest mistakes draw from, and how its facts are worded.
 */
export interface ExternalKey {
  subject: string;
  attribute: AttributeSpec;
  truth: string;
  previous: string;
  fact: FactMaker;
  /** How chatter names the subject (default: the subject). */
  chatterName?: string;
}

const OBSERVER_SOURCES = ['sensor', 'tool', 'user', 'web'] as const;
const OBSERVER_SOURCE_WEIGHTS = [0.4, 0.25, 0.2, 0.15];
const ALL_SOURCES = ['sensor', 'tool', 'user', 'web', 'agent'] as const;
/** Handles for opaque agent names: nothing in them says observer, relay or summariser. */
const HANDLES = ['Kestrel', 'Juniper', 'Atlas', 'Nova', 'Orion', 'Sable', 'Quill', 'Ember', 'Harbor', 'Lumen', 'Marlin', 'Cobalt', 'Fennel', 'Wren', 'Basalt', 'Tamarind'];
const HONEST_KINDS: Record<Role, { kinds: string[]; weights: number[] }> = {
  observer: { kinds: ['observation', 'report', 'log'], weights: [0.7, 0.2, 0.1] },
  relay: { kinds: ['relay', 'message'], weights: [0.8, 0.2] },
  summariser: { kinds: ['summary'], weights: [1] },
};
const FILED_AS_DERIVED = ['note', 'relay', 'summary'];

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
  private readonly kindOf = new Map<string, SubjectKind>();
  private readonly external = new Map<string, ExternalKey>();
  /** The source type of the agent that observed each factor (what a copy posing as an observation claims). */
  private readonly factorSourceType = new Map<string, string>();
  /** How each memory's text was made: a rendered fact (re-renderable in another family), or a verbatim copy. */
  private readonly renders = new Map<string, { fact: Fact; trimmings: Trimmings } | { copyOf: string }>();
  private nextMemory = 1;
  private nextFactor = 1;

  constructor(
    readonly config: SimulatorConfig,
    private readonly rng: Random,
  ) {}

  build(): void {
    this.makeAgents(this.rng.fork('agents'));
    const subjects = this.makeSubjects(this.rng.fork('subjects'));
    this.makeKeys(
      subjects.flatMap((subject) => this.drawAttributes(subject, this.rng.fork(`attributes:${subject.name}`))),
      this.rng.fork('keys'),
    );
    this.populate(subjects);
  }

  /** A world whose keys are given (one query each, in order), with the simulator's agents and derivations. */
  buildFromKeys(keys: readonly ExternalKey[]): void {
    this.makeAgents(this.rng.fork('agents'));
    const subjects: Subject[] = [];
    for (const k of keys) {
      if (this.kindOf.has(k.subject)) throw new Error(`simulator: two keys share the subject ${JSON.stringify(k.subject)}`);
      this.kindOf.set(k.subject, 'facility');
      this.external.set(k.subject, k);
      subjects.push({ name: k.subject, kind: 'facility' });
    }
    this.makeKeys(keys, this.rng.fork('keys'));
    this.populate(subjects);
  }

  private populate(subjects: readonly Subject[]): void {
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

  /** The subject kind of a subject name. */
  subjectKind(subject: string): SubjectKind {
    return this.kindOf.get(subject) ?? 'facility';
  }

  /**
   * Who writes a memory that `usual` would write: `usual`, or at agents.roleMixRate an agent of another
   * role (an observation written by a relay or summariser, a derived memory by an observer), so that what
   * an agent usually does says less about each memory it writes. The memory's kind still follows what it
   * is (the metadata lies only at the metadata knobs' rates).
   */
  private writer(usual: SimAgent, rng: Random): SimAgent {
    const rate = this.config.agents.roleMixRate;
    if (rate === 0 || !rng.chance(rate)) return usual;
    const others = usual.role === 'observer' ? [...this.byRole('relay'), ...this.byRole('summariser')] : this.byRole('observer');
    return others.length > 0 ? rng.pick(others) : usual;
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
    const { agents, metadata, wording } = this.config;
    const handles = rng.shuffle(HANDLES);
    let n = 0;
    const add = (role: Role, prefix: string, count: number, reliability: readonly [number, number]): void => {
      for (let i = 1; i <= count; i++) {
        const handle = handles[n % handles.length] as string;
        const round = Math.floor(n / handles.length) + 1;
        n++;
        const id = metadata.opaqueAgentNames ? `${handle.toLowerCase()}-${String(round).padStart(2, '0')}` : `${prefix}-${String(i).padStart(2, '0')}`;
        const name = metadata.opaqueAgentNames ? `${handle} ${round}` : `${capitalise(prefix)} ${i}`;
        const r = roundTo(rng.uniform(reliability[0], reliability[1]), 2);
        const sourceType = role === 'observer' ? (OBSERVER_SOURCES[rng.weighted(OBSERVER_SOURCE_WEIGHTS)] as string) : 'agent';
        const row: AgentRow = { id, name };
        if (rng.chance(agents.reliabilityKnownRate)) row.reliability = r;
        const agent: SimAgent = { row, role, reliability: r, sourceType, style: rng.pick(wording.families) };
        this.agents.push(agent);
        this.agentIndex.set(id, agent);
      }
    };
    add('observer', 'scout', agents.observers, agents.observerReliability);
    add('relay', 'relay', agents.relays, agents.relayReliability);
    add('summariser', 'digest', agents.summarisers, agents.relayReliability);
    // Opaque names are shuffled so that the order of ids does not give the roles away either.
    if (metadata.opaqueAgentNames) {
      const shuffled = rng.shuffle(this.agents);
      this.agents.splice(0, this.agents.length, ...shuffled);
    }
  }

  private makeSubjects(rng: Random): Subject[] {
    const { domains, subjects } = this.config.world;
    const pools = new Map<SubjectKind, string[]>(domains.map((k) => [k, rng.shuffle(subjectNames(k))]));
    const used = new Set<string>();
    const out: Subject[] = [];
    for (let i = 0; out.length < subjects; i++) {
      const kind = domains[i % domains.length] as SubjectKind;
      const pool = pools.get(kind) as string[];
      const base = pool[Math.floor(i / domains.length) % pool.length] as string;
      let name = base;
      for (let k = 2; used.has(name); k++) name = `${base} ${k}`;
      used.add(name);
      this.kindOf.set(name, kind);
      out.push({ name, kind });
    }
    return out;
  }

  /** The attributes a drawn subject has keys on. */
  private drawAttributes(subject: Subject, rng: Random): Array<{ subject: string; attribute: AttributeSpec }> {
    const attrs = DOMAINS[subject.kind].attributes;
    return rng
      .shuffle(attrs)
      .slice(0, this.config.world.attributesPerSubject)
      .map((attribute) => ({
        subject: subject.name,
        // A subject is never its own value (Oslo is not twinned with Oslo).
        attribute: { ...attribute, values: attribute.values.filter((v) => v !== subject.name) },
      }));
  }

  /** Keys with their truth, history and intent; drawn keys are shuffled, given keys keep their order. */
  private makeKeys(all: ReadonlyArray<{ subject: string; attribute: AttributeSpec; truth?: string; previous?: string }>, rng: Random): void {
    const { world, queries } = this.config;
    const H = world.horizon;
    const given = all.some((k) => k.truth !== undefined);
    const order = given ? all : rng.shuffle(all);
    order.forEach(({ subject, attribute, truth: givenTruth, previous: givenPrevious }, i) => {
      const truth = givenTruth ?? rng.pick(attribute.values);
      const u = rng.float();
      const intent: Intent =
        u < queries.insufficientRate ? 'insufficient' : u < queries.insufficientRate + queries.minorityRate ? 'minority' : 'plain';
      const keyCase: KeyCase = {
        subject,
        attribute,
        previous: givenPrevious ?? rng.pickOther(attribute.values, truth),
        truth,
        changeTime: roundTo(rng.uniform(0.2 * H, 0.45 * H), 1),
        queryTime: roundTo(rng.uniform(0.6 * H, 0.95 * H), 1),
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

  /** A direct observation: a new factor with details of its own. `offQuery` words the attribute with a synonym. */
  observe(key: KeyCase, observer: SimAgent, value: string, time: number, offQuery: boolean, rng: Random, pool?: 'ind'): MemoryRow {
    const { evidence, wording } = this.config;
    const agent = this.writer(observer, rng);
    const attrSurface = offQuery ? rng.pick(key.attribute.synonyms) : key.attribute.name;
    const factor = `f${this.nextFactor++}`;
    // House wording: the plain family's canonical sentence, as a standard report form would word it; the
    // event's own details go with it at houseDetailRate (a form still has a date and a reference), and a
    // house report without them cannot be told from a copy of another by its words.
    const house = rng.chance(evidence.sharedWordingRate);
    const details = house && !rng.chance(wording.houseDetailRate) ? [] : freshDetails(rng, rng.count(wording.detailsPerSource));
    const familyName = house ? houseFamily(wording.families) : this.styleOf(agent, rng);
    const fact = this.fact(key, value, attrSurface, rng, house);
    const marker = !house && rng.chance(wording.originalMarkerRate) ? originalMarker(rng) : undefined;
    const trimmings: Trimmings = { details, marker };
    const m = this.memory({
      agent: agent.row.id,
      text: family(familyName).render(fact, trimmings, rng),
      kind: honestKind(observer.role, rng),
      time,
      claims: [{ subject: key.subject, attribute: key.attribute.name, value, factor }],
      pool,
      wording: familyName,
      derivation: 'original',
    });
    this.factorSourceType.set(factor, agent.sourceType);
    this.renders.set(m.id, { fact, trimmings });
    this.setMetadata(m, agent, null, rng);
    this.wording.set(m.id, { attrSurface, details });
    return m;
  }

  // --- derivations (inherit the parent's factor) -------------------------------------------------

  private makeDerivations(key: KeyCase, rng: Random): void {
    const { evidence } = this.config;
    for (const source of key.sources.flood) this.derive(key, source, rng.count(evidence.copiesPerFloodSource), rng);
    // At rate 0 no draw is made, so worlds made before the knob existed come out the same.
    const popular = (): boolean => evidence.popularTruthRate > 0 && rng.chance(evidence.popularTruthRate);
    for (const source of key.sources.truth) this.derive(key, source, rng.count(popular() ? evidence.copiesPerFloodSource : evidence.copiesPerTruthSource), rng);
    for (const source of key.sources.noise) this.derive(key, source, rng.count(evidence.copiesPerTruthSource), rng);
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
    const { evidence, wording } = this.config;
    const claim = parent.claims.find((c) => c.subject === key.subject && c.attribute === key.attribute.name) as ClaimRow;
    // The parent's wording is this key's only when the parent was written about this key (a summary
    // written for another key words that key's attribute, not this one).
    const own = parent.claims[0];
    const aboutThisKey = own !== undefined && own.subject === key.subject && own.attribute === key.attribute.name;
    const parentWording = (aboutThisKey ? this.wording.get(parent.id) : undefined) ?? { attrSurface: key.attribute.name, details: [] };
    const summariser = kind === 'summary' && this.agents.some((a) => a.role === 'summariser');
    const deriver = rng.pick(this.byRole(summariser ? 'summariser' : 'relay'));
    const agent = this.writer(deriver, rng);
    const parents = [parent.id];
    // A verbatim copy repeats every claim of its parent (a copied merged summary keeps both facts).
    const claims: ClaimRow[] = kind === 'copy' ? parent.claims.map((c) => ({ ...c })) : [{ ...claim }];
    let earliest = parent.time;
    let text: string;
    let render: { fact: Fact; trimmings: Trimmings } | { copyOf: string } = { copyOf: parent.id };
    let familyName = parent.wording ?? houseFamily(wording.families);
    let attrSurface = parentWording.attrSurface;
    let details = parentWording.details;
    if (kind === 'copy') {
      text = parent.text;
    } else {
      if (rng.chance(evidence.rewordRate)) attrSurface = attrSurface === key.attribute.name ? rng.pick(key.attribute.synonyms) : key.attribute.name;
      const keep = kind === 'paraphrase' ? wording.paraphraseKeepsDetail : wording.summaryKeepsDetail;
      details = parentWording.details.filter(() => rng.chance(keep));
      if (rng.chance(wording.derivedAddsDetail)) details = [...details, freshDetail(rng)];
      familyName = this.styleOf(agent, rng);
      const marker = rng.chance(wording.copyMarkerRate) ? copyMarker(rng, this.agentById(parent.agent).row.name) : undefined;
      const trimmings: Trimmings = { details: rng.shuffle(details), marker };
      if (kind === 'summary') {
        const merged = rng.chance(evidence.mergeRate) ? this.mergeCandidate(key, rng) : undefined;
        if (merged) {
          claims.push({ ...merged.claim });
          parents.push(merged.memory.id);
          earliest = Math.max(earliest, merged.memory.time);
          trimmings.also = this.fact(merged.key, merged.claim.value, merged.key.attribute.name, rng, false).statement;
        }
      }
      const fact = this.fact(key, claim.value, attrSurface, rng, false);
      text = family(familyName).render(fact, trimmings, rng);
      render = { fact, trimmings };
    }
    // Written after everything it derives from, and before the question is asked.
    const time = rng.uniform(earliest, Math.max(earliest, key.queryTime));
    const memory = this.memory({ agent: agent.row.id, text, kind: honestKind(deriver.role, rng), time, claims, pool, wording: familyName, derivation: kind });
    this.setMetadata(memory, agent, parent, rng);
    this.wording.set(memory.id, { attrSurface, details });
    this.renders.set(memory.id, render);
    return { memory, parents };
  }

  /** A fact about another attribute of the same subject, for a summary to merge. */
  private mergeCandidate(key: KeyCase, rng: Random): { memory: MemoryRow; claim: ClaimRow; key: KeyCase } | undefined {
    const others = (this.keysBySubject.get(key.subject) ?? []).filter((k) => k !== key);
    if (others.length === 0) return undefined;
    const other = rng.pick(others);
    const pool = [...other.sources.truth, ...other.sources.noise, ...other.sources.flood].filter((m) => m.time <= key.queryTime);
    if (pool.length === 0) return undefined;
    const memory = rng.pick(pool);
    const claim = memory.claims[0] as ClaimRow;
    return { memory, claim, key: other };
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

  private makeChatter(subject: Subject, rng: Random): void {
    const external = this.external.get(subject.name);
    const name = external ? (external.chatterName ?? subject.name) : this.subjectKind(subject.name) === 'facility' ? `the ${subject.name}` : subject.name;
    for (let i = rng.count(this.config.world.distractorsPerSubject); i > 0; i--) {
      const agent = rng.pick(this.agents);
      const text = rng.pick(CHATTER).replace('{subject}', name);
      const m = this.memory({
        agent: agent.row.id,
        text: capitalise(text),
        kind: 'note',
        time: rng.uniform(0, this.config.world.horizon),
        claims: [],
        derivation: 'chatter',
      });
      this.setMetadata(m, agent, null, rng);
    }
  }

  // --- wording -------------------------------------------------------------------------------------

  /**
   * Rewrites every memory in one wording family, keeping each one's facts, details and marker (and its
   * claims, metadata and provenance): copies become verbatim copies of their parent's new text. The
   * invariance check compares a model's decisions on a world and on its rewrite.
   */
  rewriteAs(familyName: string, rng: Random): void {
    const target = family(familyName);
    for (const m of this.memories) {
      const render = this.renders.get(m.id);
      if (!render) continue;
      if ('copyOf' in render) {
        const parent = this.memoryById.get(render.copyOf) as MemoryRow;
        m.text = parent.text;
        if (parent.wording !== undefined) m.wording = parent.wording;
      } else {
        m.text = target.render(render.fact, render.trimmings, rng);
        m.wording = familyName;
      }
    }
  }

  /** The family `agent` writes this memory in: its habitual one, or sometimes any allowed family. */
  private styleOf(agent: SimAgent, rng: Random): string {
    const { families, agentStyleRate } = this.config.wording;
    return families.includes(agent.style) && rng.chance(agentStyleRate) ? agent.style : rng.pick(families);
  }

  /** The fact (subject, attribute worded as `attrSurface`, value) as a family renders it. */
  private fact(key: KeyCase, value: string, attrSurface: string, rng: Random, house: boolean): Fact {
    const external = this.external.get(key.subject);
    if (external) return external.fact(value, attrSurface === key.attribute.name, house, rng);
    const subject = this.subjectKind(key.subject) === 'facility' ? `the ${key.subject}` : key.subject;
    const onQuery = attrSurface === key.attribute.name;
    // Attribute-specific sentences ("X was born in Y") do not name the attribute, so an off-query wording
    // uses a generic one that carries the synonym; house wording is always the first generic sentence.
    const templates = statementsOf(key.attribute);
    const generic = templates.filter((t) => t.includes('{attr}'));
    const template = house ? (generic[0] as string) : onQuery ? rng.pick(templates) : rng.pick(generic);
    const slots = { subject, attr: attrSurface, value };
    const question = fill(rng.pick(key.attribute.questions), { subject, attr: attrSurface });
    const topic = fill(house ? 'the {attr} of {subject}' : rng.pick(['the {attr} of {subject}', '{subject} {attr}', '{subject}, {attr}']), slots);
    return { statement: fill(template, slots), topic, question, value };
  }

  // --- rows ----------------------------------------------------------------------------------------

  private memory(fields: Omit<MemoryRow, 'id' | 'factor'> & { pool?: 'corr' | 'ind' }): MemoryRow {
    const factors = [...new Set(fields.claims.map((c) => c.factor))];
    const m: MemoryRow = { id: `m${this.nextMemory++}`, ...fields, time: roundTo(fields.time, 2) };
    if (fields.pool === undefined) delete m.pool;
    if (fields.wording === undefined) delete m.wording;
    if (factors.length > 0) m.factor = factors.join('|');
    this.memories.push(m);
    this.memoryById.set(m.id, m);
    return m;
  }

  /**
   * observed / source_type (and, when lying, kind). Honest: an observation is observed with its agent's
   * source type; a derived memory is not observed, source `agent`, or copies its parent's metadata. Then
   * the lies, at their rates: a derived memory poses as an observation with its source's source type; an
   * observation is filed as a note, relay or summary; any source type is replaced by a random one.
   */
  private setMetadata(m: MemoryRow, agent: SimAgent, parent: MemoryRow | null, rng: Random): void {
    const { evidence, metadata } = this.config;
    let observed: boolean | undefined;
    let sourceType: string | undefined;
    const isClaimFree = m.claims.length === 0;
    if (parent === null) {
      observed = isClaimFree ? agent.role === 'observer' : true;
      sourceType = agent.sourceType;
      if (!isClaimFree && rng.chance(metadata.observationAsDerivedRate)) {
        m.kind = rng.pick(FILED_AS_DERIVED);
        observed = false;
        sourceType = 'agent';
      }
    } else if (rng.chance(metadata.derivedAsObservationRate)) {
      m.kind = 'observation';
      observed = true;
      sourceType = this.rootSourceType(parent);
    } else if (rng.chance(evidence.copiedMetadataRate)) {
      observed = parent.observed;
      sourceType = parent.source_type;
    } else {
      observed = false;
      sourceType = 'agent';
    }
    if (sourceType !== undefined && rng.chance(metadata.sourceTypeNoiseRate)) sourceType = rng.pick(ALL_SOURCES);
    if (rng.chance(evidence.missingMetadataRate)) return;
    if (observed !== undefined) m.observed = observed;
    if (sourceType !== undefined) m.source_type = sourceType;
  }

  /** The source type of the observation a derived memory ultimately comes from. */
  private rootSourceType(m: MemoryRow): string {
    const factor = m.claims[0]?.factor;
    return (factor !== undefined ? this.factorSourceType.get(factor) : undefined) ?? 'sensor';
  }
}

/** The family house wording uses: `plain` when allowed, else the first allowed family. */
function houseFamily(families: readonly string[]): string {
  return families.includes('plain') ? 'plain' : (families[0] as string);
}

function honestKind(role: Role, rng: Random): string {
  const k = HONEST_KINDS[role];
  return k.kinds[rng.weighted(k.weights)] as string;
}

/** Candidate subject names of a kind, real-world where the kind has them. */
function subjectNames(kind: SubjectKind): string[] {
  switch (kind) {
    case 'person':
      return FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => `${f} ${l}`));
    case 'organisation':
      return [...ORGANISATIONS, ...ORG_FOUNDERS.flatMap((f) => ORG_SUFFIXES.map((s) => `${f} ${s}`))];
    case 'country':
      return [...COUNTRIES];
    case 'city':
      return [...CITIES];
    case 'facility':
      return FACILITY_PREFIXES.flatMap((p) => FACILITY_NOUNS.map((n) => `${p} ${n}`));
  }
}

export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? `{${k}}`);
}

function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
