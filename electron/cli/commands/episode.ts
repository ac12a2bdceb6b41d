// `cama episode`: run one query through Algorithm 1 and print every step.

import { Command } from 'commander';
import type { EpisodeRecord } from '../../../shared/episode';
import { runEpisode } from '../../engine/episode';
import { fixed } from '../table';
import { describeSetup, loadEngineSetup, MODEL_OPTION_HELP, POLICY_OPTION_HELP } from './engine';
import { openData } from './open';
import { cliIo } from '../io';

export function episodeCommand(): Command {
  return new Command('episode')
    .description('run one query through the recovery loop and print each Expand / Trace / Stop step')
    .requiredOption('--query <id>', 'the query id')
    .option('--bundle <dir>', 'the bundle holding the query')
    .option('--store <file>', 'a store file holding the query (the episode is saved there)')
    .option('--engine-config <file>', 'a JSON file overriding engine settings')
    .option('--model <file>', MODEL_OPTION_HELP)
    .option('--policy <file>', POLICY_OPTION_HELP)
    .option('--json', 'print the episode record as JSON')
    .action(async (opts: { query: string; bundle?: string; store?: string; engineConfig?: string; model?: string; policy?: string; json?: boolean }) => {
      const setup = await loadEngineSetup(opts.engineConfig, opts.model, opts.policy);
      const { store } = openData(opts);
      try {
        const query = store.query(opts.query);
        if (!query) throw new Error(`no query "${opts.query}" in ${opts.bundle ?? opts.store}`);
        const episode = await runEpisode({ ...setup, source: store }, query, { method: 'cama' });
        if (opts.store) episode.id = store.saveEpisode(episode);
        cliIo().out(opts.json ? `${JSON.stringify(episode)}\n` : `${renderEpisode(episode, query.answer)}\n${describeSetup(setup)}\n`);
      } finally {
        store.close();
      }
    });
}

export function renderEpisode(e: EpisodeRecord, gold?: string): string {
  const lines = [`query ${e.queryId}: answer ${e.answer ?? '(none)'}${gold !== undefined ? ` (gold: ${gold})` : ''}`];
  for (const s of e.steps) {
    const post = s.hypotheses.map((h, k) => `${h}=${fixed(s.posterior[k], 3)}`).join(' ');
    lines.push(
      `t=${s.t}  K=${s.sliceIds.length}  N_eff=${fixed(s.nEff, 2)}  H(P)=${fixed(s.entropy, 3)}  ${s.sufficient ? 'sufficient' : 'insufficient'}  P: ${post || '(no hypotheses)'}`,
    );
    for (const a of s.offered) lines.push(`      ${a === s.offered.find((x) => x.label === s.chosen?.label) ? '→' : ' '} ${fixed(a.probability, 3)}  ${a.label}${a.reason ? `  — ${a.reason}` : ''}`);
    const how = (id: string): string => (s.added.onKey === undefined ? '' : s.added.onKey.includes(id) ? ' (on the key)' : ' (by text)');
    if (s.added.memoryIds.length > 0) lines.push(`      added ${s.added.memoryIds.map((id) => `${id}${how(id)}`).join(', ')}${s.added.edges.length ? `; edges ${s.added.edges.map((x) => `${x.child}←${x.parent}`).join(', ')}` : ''}`);
    if (!s.chosen) lines.push(s.t >= Number(e.config.budget) ? '      budget exhausted' : '      no action offered');
  }
  return lines.join('\n');
}
