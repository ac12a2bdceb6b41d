// An agent's behaviour over the store (electron/store/agent-behaviour.ts): the share of its statements
// that came first, and where it has none the share of its texts that repeat nothing earlier
// (electron/store/text-repeats.ts), on a real SQLite file.
import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../electron/store/bundleRows';
import { AGENT_MIN_STATEMENTS } from '../../electron/store/agent-behaviour';
import { Store } from '../../electron/store/store';
import { mem, openTempStore, seed } from './helpers';

/** Agent `o` observes ten keys first; `r` repeats each a little later; `x` states three values of its own. */
function world(): MemoryRecord[] {
  const out: MemoryRecord[] = [];
  for (let k = 0; k < AGENT_MIN_STATEMENTS; k++) {
    const claim = { subject: `Town ${k}`, attribute: 'mayor', value: `Person ${k}` };
    out.push(mem(`o${k}`, `The mayor of Town ${k} is Person ${k}.`, { agent: 'o', time: 10 + k, claims: [claim] }));
    out.push(mem(`r${k}`, `Heard the mayor of Town ${k} is Person ${k}.`, { agent: 'r', time: 20 + k, claims: [{ ...claim, value: `person ${k}` }] }));
  }
  for (let k = 100; k < 103; k++) out.push(mem(`x${k}`, `Village ${k} has Other ${k} as mayor.`, { agent: 'x', time: 5, claims: [{ subject: `Village ${k}`, attribute: 'mayor', value: `Other ${k}` }] }));
  return out;
}

describe("an agent's first share over the store", () => {
  it('is 1 for an agent that states every value first, 0 for one that only repeats, unknown below the minimum of statements', () => {
    const s = openTempStore();
    seed(s, { implicitAgents: ['o', 'r', 'x'], memories: world() });
    expect(Object.fromEntries(s.agentFirstShares())).toEqual({ o: 1, r: 0 });
    const b = s.agentBehaviour();
    expect([b.firstShare('o'), b.firstShare('r'), b.firstShare('x'), b.firstShare('nobody')]).toEqual([1, 0, undefined, undefined]);
  });

  it('reads a store without claims by its texts: the agent whose texts repeat earlier ones is never first', () => {
    const s = openTempStore();
    seed(s, { implicitAgents: ['o', 'r', 'x'], memories: world().map(({ claims: _, ...m }) => m) });
    expect(s.agentFirstShares().size).toBe(0);
    const b = s.agentBehaviour();
    expect([b.firstShare('o'), b.firstShare('r'), b.firstShare('x')]).toEqual([1, 0, undefined]);
    expect([b.textFirstShare('o'), b.textFirstShare('r')]).toEqual([1, 0]);
    // The drawer's count for one agent says the same.
    expect(s.agentStatements('r')).toEqual({ memories: AGENT_MIN_STATEMENTS, statements: 0, firsts: 0, firstShare: undefined, text: { memories: AGENT_MIN_STATEMENTS, firsts: 0, share: 0 } });
  });

  it('prefers the claims where an agent has enough of them, and its text where it has too few', () => {
    const s = openTempStore();
    // r now repeats o's values as statements of its own, the text saying something else each time.
    const memories = world().map((m) => (m.agent === 'r' ? { ...m, text: `Note ${m.id}.` } : m));
    seed(s, { implicitAgents: ['o', 'r', 'x'], memories });
    const b = s.agentBehaviour();
    expect(b.textFirstShare('r')).toBe(1);
    expect(b.firstShare('r')).toBe(0);
  });

  it('counts neither the evaluation pools, nor denials, nor statements without a time', () => {
    const s = openTempStore();
    const claim = (k: number) => ({ subject: `Town ${k}`, attribute: 'mayor', value: `Person ${k}` });
    seed(s, {
      implicitAgents: ['o', 'r', 'x', 'c'],
      memories: [
        ...world(),
        // Earlier than o, but appended copies (corr), a denial, or undated: none makes o a follower.
        ...Array.from({ length: 12 }, (_, k) => mem(`c${k}`, `Copy ${k}`, { agent: 'c', time: 1, pool: 'corr', claims: [claim(k % AGENT_MIN_STATEMENTS)] })),
        mem('d0', 'Not Person 0.', { agent: 'c', time: 1, claims: [{ ...claim(0), polarity: '-' }] }),
        mem('u0', 'Person 1, undated.', { agent: 'c', claims: [claim(1)] }),
      ],
    });
    expect(Object.fromEntries(s.agentFirstShares())).toEqual({ o: 1, r: 0 });
  });

  it('is read again after an import adds memories, and a snapshot taken before keeps what it read', () => {
    const s = openTempStore();
    seed(s, { implicitAgents: ['o', 'r', 'x'], memories: world() });
    const before = s.agentBehaviour();
    expect(before.firstShare('o')).toBe(1);
    // r turns out to have stated half of the values earlier than o did.
    seed(s, {
      memories: Array.from({ length: AGENT_MIN_STATEMENTS / 2 }, (_, k) =>
        mem(`early${k}`, `Town ${k} mayor: Person ${k}`, { agent: 'r', time: 1, claims: [{ subject: `Town ${k}`, attribute: 'mayor', value: `Person ${k}` }] }),
      ),
    });
    expect(before.firstShare('o')).toBe(1);
    expect(s.agentBehaviour().firstShare('o')).toBe(0.5);
    expect(s.agentBehaviour().firstShare('r')).toBeCloseTo(5 / 15, 12);
  });

  it('takes both passes read by another connection to the same file, and reads them again once the store changes', () => {
    const s = openTempStore();
    seed(s, { implicitAgents: ['o', 'r', 'x'], memories: world().map(({ claims: _, ...m }) => m) });
    // Another connection (the app's worker thread has one) reads both passes; x has too few dated memories.
    const other = Store.open(s.path);
    const passes = other.agentBehaviourPasses();
    other.close();
    expect(passes.shares.size).toBe(0);
    expect([...(passes.texts?.keys() ?? [])].sort()).toEqual(['o', 'r', 'x']);
    expect(s.agentBehaviourHeld()).toEqual({ shares: false, texts: false });
    s.seedAgentBehaviour(passes);
    expect(s.agentBehaviourHeld()).toEqual({ shares: true, texts: true });
    const b = s.agentBehaviour();
    expect([b.firstShare('o'), b.firstShare('r'), b.firstShare('x')]).toEqual([1, 0, undefined]);
    // What was read before a change is not taken for the store after it, held or handed over late.
    seed(s, { memories: [mem('late', 'A later note.', { agent: 'x', time: 99 })] });
    expect(s.agentBehaviourHeld()).toEqual({ shares: false, texts: false });
    s.seedAgentBehaviour(passes);
    expect(s.agentBehaviourHeld()).toEqual({ shares: false, texts: false });
    // A store whose every writer has enough statements has no text pass to hand over; one writer without a
    // share, even of undated memories only, and the reader would run it, so it is handed over.
    const c = openTempStore();
    seed(c, { implicitAgents: ['o', 'r', 'u'], memories: world().filter((m) => m.agent !== 'x') });
    expect(c.agentBehaviourPasses().texts).toBeUndefined();
    seed(c, { memories: [mem('u0', 'An undated note.', { agent: 'u' })] });
    const elsewhere = Store.open(c.path);
    const handed = elsewhere.agentBehaviourPasses();
    elsewhere.close();
    expect(handed.texts?.has('u')).toBe(false);
    expect(c.agentBehaviourHeld()).toEqual({ shares: false, texts: false });
    c.seedAgentBehaviour(handed);
    expect(c.agentBehaviour().firstShare('u')).toBeUndefined();
    expect(c.agentBehaviourHeld()).toEqual({ shares: true, texts: true });
  });

  it("reads one agent's statements as the whole-store pass does, in a simulated world of many agents", async () => {
    const { simulateBundle, storeOf, tempDir } = await import('../model/helpers');
    const store = storeOf(await simulateBundle(tempDir(), { seed: 83, world: { subjects: 30 }, queries: { count: 20 }, agents: { roleMixRate: 0.2 } }));
    try {
      const shares = store.agentFirstShares();
      const agents = store.agents().map((a) => a.id);
      expect(shares.size).toBeGreaterThan(3);
      for (const agent of agents) {
        const one = store.agentStatements(agent);
        expect(one.firstShare, agent).toBe(shares.get(agent));
        expect(one.firsts).toBeLessThanOrEqual(one.statements);
      }
      // Relays and summarisers are rarely first, observers often: both kinds of agent are in the world.
      const values = [...shares.values()];
      expect(Math.min(...values)).toBeLessThan(0.2);
      expect(Math.max(...values)).toBeGreaterThan(0.4);
      // Read from the texts alone, the agents the claims put last come last there too (text-repeats.ts).
      const texts = store.agentBehaviour();
      const byClaims = [...shares].sort((a, b) => a[1] - b[1]).map(([a]) => texts.textFirstShare(a) as number);
      const half = Math.floor(byClaims.length / 2);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(mean(byClaims.slice(0, half))).toBeLessThan(mean(byClaims.slice(-half)) - 0.2);
      expect(store.agentStatements('nobody')).toEqual({ memories: 0, statements: 0, firsts: 0, firstShare: undefined, text: { memories: 0, firsts: 0, share: undefined } });
    } finally {
      store.close();
    }
  });

  it("counts one agent's memories, dated statements and firsts: a claim-free memory is a memory only, an appended copy neither", () => {
    const s = openTempStore();
    seed(s, { implicitAgents: ['o', 'r', 'x'], memories: world() });
    seed(s, { memories: [mem('o-note', 'Nothing to report today.', { agent: 'o', time: 50 }), mem('o-copy', 'Copy.', { agent: 'o', time: 1, pool: 'corr', claims: [{ subject: 'Town 0', attribute: 'mayor', value: 'Person 0' }] })] });
    // A memory without claims counts as a memory and not as a statement; an appended copy as neither.
    expect(s.agentStatements('o')).toEqual({ memories: AGENT_MIN_STATEMENTS + 1, statements: AGENT_MIN_STATEMENTS, firsts: AGENT_MIN_STATEMENTS, firstShare: 1 });
    expect(s.agentStatements('r')).toEqual({ memories: AGENT_MIN_STATEMENTS, statements: AGENT_MIN_STATEMENTS, firsts: 0, firstShare: 0 });
    // Too few statements to say: its texts are read instead, too few as well.
    expect(s.agentStatements('x')).toEqual({ memories: 3, statements: 3, firsts: 3, firstShare: undefined, text: { memories: 3, firsts: 3, share: undefined } });
  });
});
