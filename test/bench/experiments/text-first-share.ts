// Experiment (not part of the suite or the app): can a store without structured claims say which agents
// copy? Featurizer version 6 reads each agent's first share from its claims (electron/store/agent-behaviour.ts);
// a text-only store has none, so every agent reads as unknown there. This reads the same statistic from
// text alone, as electron/store/text-repeats.ts reads it: a memory repeats an earlier one when an earlier
// memory's text holds half or more of its words (weighted by inverse document frequency), and an agent's
// text first share is the share of its dated memories, chatter included, that repeat nothing earlier. It
// prints, per bundle and θ, the share of derived and of original memories read as repeats (the bundle's
// `derivation`: copy, paraphrase, summary against original, read for scoring only), how well the text share
// separates mostly-deriving agents from observers (ROC AUC, beside the claim share's), and how closely the
// two shares agree per agent (Pearson r).
//   npx tsx test/bench/experiments/text-first-share.ts [--theta 0.3,0.4,0.5,0.6] BUNDLE_DIR...
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import { Store } from '../../../electron/store/store';
import { repeatsEarlier } from '../../../electron/store/text-repeats';
import { auc, bundleMemoryRows, pearson } from './common';

const { values, positionals: args } = parseArgs({ options: { theta: { type: 'string', default: '0.3,0.4,0.5,0.6' } }, allowPositionals: true });
const thetas = values.theta.split(',').map(Number);

interface Row {
  id: string;
  agent: string;
  text: string;
  time?: number;
  claims?: unknown[];
  derivation?: string;
}

for (const dir of args) {
  const rows = bundleMemoryRows<Row>(dir);
  const store = Store.open(':memory:');
  importBundle(store, dir);
  const claimShare = store.agentFirstShares();
  store.close();

  const N = rows.length;
  const dated = rows.filter((r): r is Row & { time: number } => r.time !== undefined);
  const derived = (r: Row) => r.derivation === 'copy' || r.derivation === 'paraphrase' || r.derivation === 'summary';
  // Agents as the simulator made them: mostly deriving, or mostly observing (chatter aside).
  const byAgent = new Map<string, { d: number; n: number }>();
  for (const r of dated) {
    if (r.derivation === undefined || r.derivation === 'chatter') continue;
    const t = byAgent.get(r.agent) ?? { d: 0, n: 0 };
    t.n++;
    if (derived(r)) t.d++;
    byAgent.set(r.agent, t);
  }
  const agents = [...byAgent].filter(([, t]) => t.n >= 10);
  const isCopier = (t: { d: number; n: number }) => t.d / t.n >= 0.5;
  const claimAuc = auc(
    agents.filter(([, t]) => isCopier(t)).map(([a]) => 1 - (claimShare.get(a) ?? 1)),
    agents.filter(([, t]) => !isCopier(t)).map(([a]) => 1 - (claimShare.get(a) ?? 1)),
  );
  const derivedShare = agents.map(([, t]) => t.d / t.n);
  const out: string[] = [];
  for (const theta of thetas) {
    // Every dated memory counts, chatter included, as the store counts them.
    const flags = repeatsEarlier(dated, theta);
    const counts = new Map<string, [firsts: number, all: number]>();
    dated.forEach((r, k) => {
      const c = counts.get(r.agent) ?? [0, 0];
      c[1]++;
      if (flags[k] === 0) c[0]++;
      counts.set(r.agent, c);
    });
    const share = new Map(agents.map(([a]) => [a, (counts.get(a) as [number, number])[0] / (counts.get(a) as [number, number])[1]]));
    const flagged = (pick: (r: Row) => boolean) => {
      const ks = dated.flatMap((r, k) => (r.derivation !== undefined && r.derivation !== 'chatter' && pick(r) ? [k] : []));
      return ks.filter((k) => flags[k] === 1).length / ks.length;
    };
    const agentAuc = auc(
      agents.filter(([, t]) => isCopier(t)).map(([a]) => 1 - (share.get(a) as number)),
      agents.filter(([, t]) => !isCopier(t)).map(([a]) => 1 - (share.get(a) as number)),
    );
    const withClaim = agents.filter(([a]) => claimShare.has(a));
    const r = withClaim.length > 2 ? pearson(withClaim.map(([a]) => share.get(a) as number), withClaim.map(([a]) => claimShare.get(a) as number)) : NaN;
    const rd = pearson(agents.map(([a]) => share.get(a) as number), derivedShare);
    const perMemory = `repeats: ${(100 * flagged(derived)).toFixed(0)}% of derived memories, ${(100 * flagged((x) => !derived(x))).toFixed(0)}% of originals`;
    out.push(`θ ${theta}: ${perMemory}; agent AUC ${agentAuc.toFixed(3)}, r(text, claim share) ${r.toFixed(2)}, r(text share, derived share) ${rd.toFixed(2)}`);
  }
  const copiers = agents.filter(([, t]) => isCopier(t)).length;
  console.log(`${dir.split('/').pop()}: ${N} memories, ${agents.length} agents (${copiers} mostly derived); claim share agent AUC ${claimAuc.toFixed(3)}`);
  for (const line of out) console.log(`  ${line}`);
}
