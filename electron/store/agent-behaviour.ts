// What an agent's behaviour over the whole store says about the memories it writes (featurizer version 6).
// A copy, a paraphrase or a summary follows what it derives from, so the agent that writes it is not the
// first to state that value on that key; an agent that observes the world often is. Over everything an
// agent has written, the share of its statements that came first tells one from the other where neither
// a memory's text nor its metadata does (its kind and `observed` may lie, and nothing may be recorded):
// test/bench/experiments/agent-behaviour.ts measured it (docs/experiments.md, 2026-12-05 evening).
//
// Statements are the base pool's structured claims that assert a value (polarity '+') and have a time;
// subjects, attributes and values are compared case-folded (SQLite's lower(), ASCII). The corr / ind pools
// (the evaluation's appended variants) do not count, so appending them to a slice changes nothing here.
// An agent with fewer than AGENT_MIN_STATEMENTS such statements has no share: too little to say.
//
// A store without claims (most memories real agents write carry none; `eval --claims none`) still says
// who writes first through its texts: an agent without enough statements is read by its text first share
// (text-repeats.ts), the share of its dated memories that repeat no earlier text, with the same minimum.

import type Database from 'better-sqlite3';
import { type TextFirsts, textFirsts } from './text-repeats';

/** Below this many time-stamped statements an agent's first share is unknown. */
export const AGENT_MIN_STATEMENTS = 10;

/** What the store says of each agent's behaviour (read once per change of the store). */
export interface AgentBehaviour {
  /**
   * The share of the agent's statements that are the earliest statement of their value on their key in
   * the store (ties all count as first), in [0, 1]; for an agent below AGENT_MIN_STATEMENTS statements, its
   * text first share; undefined where neither reaches the minimum.
   */
  firstShare(agent: string): number | undefined;
  /** The text first share alone: what the same store without its claims would say of the agent. */
  textFirstShare(agent: string): number | undefined;
}

const FIRST_SHARES_SQL = `
  WITH s AS (
    SELECT m.agent AS agent, m.time AS time, lower(c.subject) AS sb, lower(c.attribute) AS at, lower(c.value) AS v
    FROM claims c JOIN memories m ON m.rowid = c.memory_rowid
    WHERE m.time IS NOT NULL AND c.polarity = '+' AND (m.pool IS NULL OR m.pool = 'base')
  ),
  f AS (SELECT sb, at, v, MIN(time) AS t0 FROM s GROUP BY sb, at, v)
  SELECT s.agent AS agent, AVG(CASE WHEN s.time <= f.t0 THEN 1.0 ELSE 0.0 END) AS share, COUNT(*) AS n
  FROM s JOIN f ON f.sb = s.sb AND f.at = s.at AND f.v = s.v
  GROUP BY s.agent`;

/** One agent's statements and how many came first (the per-agent reading of FIRST_SHARES_SQL). */
export interface AgentStatements {
  /** Base-pool memories the agent wrote, with claims or without. */
  memories: number;
  /** Base-pool `+` claims with a time. */
  statements: number;
  /** Of those, the earliest statement of their value on their key (ties count as first). */
  firsts: number;
  /** firsts / statements, undefined below AGENT_MIN_STATEMENTS. */
  firstShare: number | undefined;
  /**
   * Where firstShare is undefined, what the model reads instead: the agent's base-pool memories with a time,
   * how many repeat no earlier text (text-repeats.ts), and their share (undefined below the minimum). Absent
   * where the claims say enough, so a store with claims never pays for the text pass here.
   */
  text?: AgentTexts;
}

export interface AgentTexts extends TextFirsts {
  share: number | undefined;
}

/**
 * Both passes over a store as of one stamp, read where the app's questions are not answered (a worker
 * thread: electron/backend/worker.ts, asked by service.ts) and handed to the reader that answers them (seed). `texts` is
 * absent where every agent of the store has a first share, as the reader would not run the text pass there either.
 */
export interface BehaviourPasses {
  stamp: number | null;
  shares: ReadonlyMap<string, number>;
  texts?: ReadonlyMap<string, TextFirsts>;
}

// The same statistic for one agent, through the agent and claim-key indexes instead of a pass over every
// claim (the whole-store pass takes seconds at a million memories; a drawer asks of one agent at a time).
// NOCASE compares as lower() does (ASCII), so both readings agree (test/store/agent-behaviour.test.ts).
const ONE_AGENT_SQL = `
  WITH s AS (
    SELECT m.time AS time, c.subject AS sb, c.attribute AS at, c.value AS v
    FROM memories m JOIN claims c ON c.memory_rowid = m.rowid
    WHERE m.agent = ? AND m.time IS NOT NULL AND c.polarity = '+' AND (m.pool IS NULL OR m.pool = 'base')
  )
  SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN s.time <= (
    SELECT MIN(m2.time) FROM claims c2 JOIN memories m2 ON m2.rowid = c2.memory_rowid
    WHERE c2.subject = s.sb COLLATE NOCASE AND c2.attribute = s.at COLLATE NOCASE AND lower(c2.value) = lower(s.v)
      AND c2.polarity = '+' AND m2.time IS NOT NULL AND (m2.pool IS NULL OR m2.pool = 'base')
  ) THEN 1 ELSE 0 END), 0) AS firsts
  FROM s`;

/**
 * Each agent's first share, computed on first use and again only after memories were added (memories and
 * their claims are only ever inserted, so the largest rowid says whether anything changed).
 */
export class AgentBehaviourReader {
  private readonly shares: Database.Statement<[], { agent: string; share: number; n: number }>;
  private readonly stampRow: Database.Statement<[], { r: number | null }>;
  private readonly claimPass: StampedPass<ReadonlyMap<string, number>>;
  private readonly textPass: StampedPass<ReadonlyMap<string, TextFirsts>>;
  private readonly oneAgent: Database.Statement<[string], { n: number; firsts: number }>;
  private readonly agentMemories: Database.Statement<[string], { n: number }>;
  private readonly datedTexts: Database.Statement<[], { agent: string; time: number; text: string }>;
  private readonly agentCount: Database.Statement<[], { n: number }>;

  constructor(private readonly db: Database.Database) {
    this.shares = db.prepare(FIRST_SHARES_SQL);
    this.stampRow = db.prepare('SELECT max(rowid) AS r FROM memories');
    this.oneAgent = db.prepare(ONE_AGENT_SQL);
    this.agentMemories = db.prepare("SELECT COUNT(*) AS n FROM memories WHERE agent = ? AND (pool IS NULL OR pool = 'base')");
    this.datedTexts = db.prepare("SELECT agent, time, text FROM memories WHERE time IS NOT NULL AND (pool IS NULL OR pool = 'base')");
    this.agentCount = db.prepare('SELECT COUNT(DISTINCT agent) AS n FROM memories');
    this.claimPass = new StampedPass(() => new Map(this.shares.all().flatMap((row) => (row.n >= AGENT_MIN_STATEMENTS ? [[row.agent, row.share] as const] : []))));
    this.textPass = new StampedPass(() => textFirsts(this.datedTexts.all()));
  }

  /** One agent's statements, read now (an agent the store does not know has none). */
  statementsOf(agent: string): AgentStatements {
    const { n, firsts } = this.oneAgent.get(agent) as { n: number; firsts: number };
    const memories = (this.agentMemories.get(agent) as { n: number }).n;
    if (n >= AGENT_MIN_STATEMENTS) return { memories, statements: n, firsts, firstShare: firsts / n };
    const text = this.texts().get(agent) ?? { memories: 0, firsts: 0 };
    return { memories, statements: n, firsts, firstShare: undefined, text: { ...text, share: textShare(text) } };
  }

  /**
   * The behaviour as of the first question asked of it: one freshness check then, and the shares computed
   * only if the store changed since they last were (a model that reads no behaviour never asks).
   */
  snapshot(): AgentBehaviour {
    let shares: ReadonlyMap<string, number> | null = null;
    let texts: ReadonlyMap<string, TextFirsts> | null = null;
    const textFirstShare = (agent: string) => textShare((texts ??= this.texts()).get(agent));
    return { firstShare: (agent) => (shares ??= this.current()).get(agent) ?? textFirstShare(agent), textFirstShare };
  }

  /** Every agent with a share, as of now. */
  current(): ReadonlyMap<string, number> {
    return this.claimPass.read(this.stamp());
  }

  /** Every agent's dated memories and text firsts, as of now (the pass runs again only after a change). */
  texts(): ReadonlyMap<string, TextFirsts> {
    return this.textPass.read(this.stamp());
  }

  /**
   * Both passes as of now, in one read transaction (so the stamp is the one they read), the text pass only
   * where some agent of the store (of any pool, dated or not) has no first share: a slice member written by
   * such an agent would make the reader run the text pass, so the reader must be handed it.
   */
  passes(): BehaviourPasses {
    return this.db.transaction((): BehaviourPasses => {
      const stamp = this.stamp();
      const shares = this.current();
      if ((this.agentCount.get() as { n: number }).n <= shares.size) return { stamp, shares };
      return { stamp, shares, texts: this.texts() };
    })();
  }

  /**
   * Takes passes read elsewhere (passes()), kept until the store changes like the reader's own; passes read
   * before the store last changed are not taken (a question asked now computes them afresh).
   */
  seed(p: BehaviourPasses): void {
    if (p.stamp !== this.stamp()) return;
    this.claimPass.seed(p.stamp, p.shares);
    if (p.texts) this.textPass.seed(p.stamp, p.texts);
  }

  /** Which passes are held for the store as it is now (a question asked now would compute the others). */
  held(): { shares: boolean; texts: boolean } {
    const stamp = this.stamp();
    return { shares: this.claimPass.holds(stamp), texts: this.textPass.holds(stamp) };
  }

  private stamp(): number | null {
    return (this.stampRow.get() as { r: number | null }).r;
  }
}

/** A pass over the store kept until the store's stamp (its largest memory rowid) changes. */
class StampedPass<T> {
  private stamp: number | null | undefined = undefined;
  private value: T | undefined;

  constructor(private readonly compute: () => T) {}

  read(stamp: number | null): T {
    if (!this.holds(stamp)) this.seed(stamp, this.compute());
    return this.value as T;
  }

  holds(stamp: number | null): boolean {
    return stamp === this.stamp && this.value !== undefined;
  }

  seed(stamp: number | null, value: T): void {
    this.value = value;
    this.stamp = stamp;
  }
}

/** What the same store without its claims says of each agent (`eval --claims none`): its texts only. */
export function behaviourWithoutClaims(b: AgentBehaviour): AgentBehaviour {
  return { firstShare: b.textFirstShare, textFirstShare: b.textFirstShare };
}

function textShare(t: TextFirsts | undefined): number | undefined {
  return t !== undefined && t.memories >= AGENT_MIN_STATEMENTS ? t.firsts / t.memories : undefined;
}
