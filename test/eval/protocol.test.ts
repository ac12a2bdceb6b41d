// The evaluation protocol on a tiny configuration: report sets generated at each provenance rate, scored
// with and without claims on the same slices, the targets checked, one Markdown row per run.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineConfig } from '../../electron/engine/config';
import { heuristicModel } from '../../electron/engine/evidence/heuristic';
import { heuristicPolicy } from '../../electron/engine/policy';
import type { ScoredQuestions } from '../../electron/eval/intervals';
import { againstMethod } from '../../electron/eval/methods';
import { EvalWorkers } from '../../electron/eval/parallel';
import { loadEngine } from '../../electron/runtime/setup';
import {
  ablationChecks,
  describeCheck,
  type ProtocolConfig,
  protocolChecks,
  readProtocol,
  type ProtocolRow,
  pooledComparison,
  renderAblations,
  renderComparison,
  renderInvariance,
  renderPooled,
  renderProtocol,
  runInvariance,
  runProtocol,
  summarizeChecks,
} from '../../electron/eval/protocol';
import { VALIDATION_FAMILY_NAMES } from '../../electron/simulator/wording';
import { tempDir } from '../simulator/helpers';

const ROOT = path.join(__dirname, '../..');

const TARGETS = { cmr: 75, rs: 8, err: 40, textAccuracy: 60 };

/** The first line of a generated bundle's manifest.jsonl: what wrote it and with which config. */
function manifestOf(bundle: string): { part?: string; wordingFamilies: object; config: { seed: number; wording: { families: string[]; rewriteAs?: string } } } {
  return JSON.parse(fs.readFileSync(path.join(bundle, 'manifest.jsonl'), 'utf8').split('\n')[0]!);
}

/** The heuristic provider and policy at the default engine settings: the engine these runs score with. */
function heuristicContext() {
  const config = engineConfig();
  return { config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy };
}

/** A fresh folder holding `tiny.json` (20 subjects, 24 questions, the seed given) and a protocol over that one set. */
function tinyProtocol(seed: number, rest: Omit<ProtocolConfig, 'sets' | 'targets'>): { dir: string; config: ProtocolConfig } {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'tiny.json'), JSON.stringify({ seed, world: { subjects: 20 }, queries: { count: 24 } }));
  return { dir, config: { sets: [{ name: 'tiny', simulate: 'tiny.json' }], ...rest, targets: TARGETS } };
}

describe('the evaluation protocol', () => {
  it('the shipped protocol names every report set the README reports, and its files exist', () => {
    const file = path.join(ROOT, 'resources/configs/protocol.json');
    const p = readProtocol(file);
    expect(p.sets.map((s) => s.name)).toEqual(['simulator-test', 'simulator-test-shifted', 'heldout-families', 'lying-metadata', 'situatedqa-dev']);
    for (const s of p.sets) expect(fs.existsSync(path.resolve(path.dirname(file), (s.simulate ?? s.situatedqa) as string)), s.name).toBe(true);
    expect(p.provenance).toEqual([1, 0.5, 0]);
    expect(p.claims).toEqual(['keep', 'none']);
  });

  it('the validation protocol mirrors the report shifts at seeds no report set uses, in the training families or the validation-only ones', () => {
    const configs = path.join(ROOT, 'resources/configs');
    const report = readProtocol(path.join(configs, 'protocol.json'));
    const validation = readProtocol(path.join(configs, 'validation-protocol.json'));
    const knobs = (s: { simulate?: string; seed?: number; families?: string[] }): { seed?: number; families?: string[] } => {
      const raw = (s.simulate ? JSON.parse(fs.readFileSync(path.join(configs, s.simulate), 'utf8')) : {}) as { seed?: number; wording?: { families?: string[] } };
      return { seed: s.seed ?? raw.seed, families: s.families ?? raw.wording?.families };
    };
    const training = knobs({ simulate: 'simulator-train.json' }).families as string[];
    const reportSeeds = new Set(report.sets.map((s) => knobs(s).seed));
    for (const s of validation.sets) {
      const k = knobs(s);
      expect(reportSeeds.has(k.seed), s.name).toBe(false);
      expect(k.families, s.name).toBeDefined();
      // A set is in the training families, or wholly in the families kept for model selection.
      const outside = k.families!.filter((f) => !training.includes(f));
      expect(outside.length === 0 || outside.length === k.families!.length, s.name).toBe(true);
      expect(outside.filter((f) => !VALIDATION_FAMILY_NAMES.includes(f)), s.name).toEqual([]);
    }
    // One set is in the validation-only families, which neither training nor any report set writes in.
    expect(validation.sets.filter((s) => knobs(s).families!.every((f) => VALIDATION_FAMILY_NAMES.includes(f))).map((s) => s.name)).toEqual(['validation-families']);
    for (const s of report.sets) expect((knobs(s).families ?? []).filter((f) => VALIDATION_FAMILY_NAMES.includes(f)), s.name).toEqual([]);
    for (const f of ['simulator-train.json', 'situatedqa-train.json']) expect(knobs({ simulate: f }).families!.filter((x) => VALIDATION_FAMILY_NAMES.includes(x)), f).toEqual([]);
    // The SituatedQA set is the held-out fifth of the train file, never the dev file.
    expect(validation.sets.filter((s) => s.situatedqa).map((s) => [s.situatedqa, s.part])).toEqual([['../data/situatedqa/temp.train.jsonl', 'validation']]);
    // The same rates, claims modes, methods, targets and invariance bounds as the report protocol; the
    // invariance checks on the training generator's validation set, rewritten in the training families
    // and the validation-only ones.
    expect({ ...validation, sets: [], description: '', invariance: undefined, ablations: undefined }).toEqual({ ...report, sets: [], description: '', invariance: undefined, ablations: undefined });
    // The same ablations and bounds, on the validation sets of the same kinds: the generator's own and the unseen families.
    const setsOf = (a: ProtocolConfig['ablations']) => ({ ...a, sets: [], maxDrop: { ...a?.maxDrop, set: '' }, minDrop: { ...a?.minDrop, set: '' } });
    expect(setsOf(validation.ablations)).toEqual(setsOf(report.ablations));
    expect(report.ablations?.sets).toEqual(['simulator-test', 'heldout-families']);
    expect(validation.ablations?.sets).toEqual(['simulator-validation', 'validation-families']);
    expect({ ...validation.invariance, set: '', families: [], worlds: undefined }).toEqual({ ...report.invariance, set: '', families: [] });
    // The rewrite pools two more worlds of the generator's validation set: validation-worlds.json's seeds for it.
    const worlds = readProtocol(path.join(configs, 'validation-worlds.json'));
    const simulatorWorlds = worlds.sets.filter((s) => s.simulate === 'simulator-validation.json' && s.seed !== undefined).map((s) => s.seed);
    expect(validation.invariance?.worlds).toEqual(simulatorWorlds);
    expect(simulatorWorlds.some((seed) => reportSeeds.has(seed))).toBe(false);
    expect(validation.invariance?.set).toBe('simulator-validation');
    expect([...validation.invariance!.families].sort()).toEqual([...training, ...VALIDATION_FAMILY_NAMES].sort());
    // The shuffle check averages several permutations: one draw of it is noise (README, Results).
    expect(report.invariance?.shuffleSeeds?.length).toBeGreaterThanOrEqual(5);
  });

  it('the multi-world protocols hold each set of theirs in three worlds: the same knobs, seeds no other protocol or training uses', () => {
    const configs = path.join(ROOT, 'resources/configs');
    const seedOf = (s: { simulate?: string; situatedqa?: string; seed?: number }): number | undefined =>
      s.seed ?? (s.simulate ? (JSON.parse(fs.readFileSync(path.join(configs, s.simulate), 'utf8')) as { seed?: number }).seed : undefined);
    const read = (f: string) => readProtocol(path.join(configs, f));
    const pairs = [
      ['validation-protocol.json', 'validation-worlds.json', 'protocol.json'],
      ['protocol.json', 'protocol-worlds.json', 'validation-worlds.json'],
    ] as const;
    for (const [baseFile, worldsFile, otherFile] of pairs) {
      const base = read(baseFile);
      const worlds = read(worldsFile);
      // Seeds of the other protocol (all its worlds where it has them) and of training are off limits.
      const other = read(otherFile).sets.map(seedOf);
      const taken = new Set([...other, seedOf({ simulate: 'simulator-train.json' }), seedOf({ simulate: 'situatedqa-train.json' })].filter((x) => x !== undefined));
      for (const v of base.sets) {
        const mine = worlds.sets.filter((w) => w.name === v.name || w.name.startsWith(`${v.name}-w`));
        // The set itself and two more worlds of it: everything but the name, the seed and the note as it is.
        expect(mine.map((w) => w.name)[0], v.name).toBe(v.name);
        expect(new Set(mine.map(seedOf)).size, v.name).toBe(3);
        for (const w of mine) {
          expect({ ...w, name: '', seed: undefined, note: '' }, w.name).toEqual({ ...v, name: '', seed: undefined, note: '' });
          expect(taken.has(seedOf(w) as number), `${worldsFile}: ${w.name}`).toBe(false);
        }
      }
      expect(worlds.sets).toHaveLength(3 * base.sets.length);
      expect(worlds.invariance).toBeUndefined();
      expect(worlds.ablations).toBeUndefined();
      expect({ ...worlds, sets: [], description: '', methods: [] }).toEqual({ ...base, sets: [], description: '', methods: [], invariance: undefined, ablations: undefined });
    }
  });

  it('refuses a set that names a part of a simulated world, or a wording family that does not exist', () => {
    const dir = tempDir();
    const write = (set: object) => {
      const file = path.join(dir, 'p.json');
      fs.writeFileSync(file, JSON.stringify({ sets: [set], provenance: [1], claims: ['keep'], methods: ['cama'], targets: TARGETS }));
      return () => readProtocol(file);
    };
    expect(write({ name: 'a', simulate: 'x.json', part: 'validation' })).toThrow(/p\.json: not a valid protocol.*part/s);
    expect(write({ name: 'a', simulate: 'x.json', families: ['sonnets'] })).toThrow(/p\.json: not a valid protocol.*families/s);
    expect(write({ name: 'a', situatedqa: 'x.jsonl', part: 'validation', families: ['plain'] })()).toMatchObject({ sets: [{ part: 'validation', families: ['plain'] }] });
  });

  it('generates each set at each provenance rate, scores it with and without claims, and checks the targets', async () => {
    const { dir, config } = tinyProtocol(5, { provenance: [1, 0], claims: ['keep', 'none'], methods: ['majority_vote', 'provenance_root', 'cama', 'oracle_factors', 'oracle_slots'] });
    const rows = await runProtocol({ config, configDir: dir, dir: path.join(dir, 'sets'), context: heuristicContext() });
    expect(rows.map((r) => `${r.set}/${r.provenance}/${r.claims}`)).toEqual(['tiny/1/keep', 'tiny/1/none', 'tiny/0/keep', 'tiny/0/none']);
    // Same questions, every run; claims really removed in the `none` runs.
    for (const r of rows) expect(r.queries).toBe(24);
    expect(rows.map((r) => r.claimCoverage > 0.5)).toEqual([true, false, true, false]);
    // Provenance recorded for every derivation is what provenance_root needs: it does at least as well with it.
    expect(rows[0]!.methods.provenance_root!.cmr!).toBeGreaterThanOrEqual(rows[2]!.methods.provenance_root!.cmr!);
    // The bundles are reused while their config is unchanged.
    const before = fs.statSync(path.join(dir, 'sets', 'tiny-p1', 'memories.jsonl')).mtimeMs;
    await runProtocol({ config: { ...config, provenance: [1], claims: ['keep'] }, configDir: dir, dir: path.join(dir, 'sets'), context: heuristicContext() });
    expect(fs.statSync(path.join(dir, 'sets', 'tiny-p1', 'memories.jsonl')).mtimeMs).toBe(before);

    const checks = protocolChecks(rows, config.targets);
    // Claims kept: CMR, RS, ERR and CAMA against provenance_root; claims removed: CAMA against the best baseline.
    expect(checks.filter((x) => x.row === rows[0]).map((x) => x.what)).toEqual(['cama CMR ≥ 75', 'cama RS ≤ 8', 'cama ERR ≥ 40', 'cama CMR ≥ provenance_root']);
    expect(checks.filter((x) => x.row === rows[1]).map((x) => x.what)).toEqual([expect.stringMatching(/^cama accuracy > every baseline \(best: /)]);
    const rival = checks.find((x) => x.row === rows[0] && x.what === 'cama CMR ≥ provenance_root')!;
    expect(rival.pass).toBe(rows[0]!.methods.cama!.cmr! >= rows[0]!.methods.provenance_root!.cmr!);
    const cmr = checks.find((x) => x.row === rows[2] && x.what === 'cama CMR ≥ 75')!;
    expect(cmr.pass).toBe(rows[2]!.methods.cama!.cmr! >= 75);
    // Each verdict carries the 95% interval of its figure and whether that interval settles it: on 24
    // questions a CMR's interval is tens of points wide, so a verdict on a CMR is settled only far from 75.
    expect(cmr.interval).toEqual(rows[2]!.methods.cama!.ci95!.cmr);
    expect(cmr.interval![1] - cmr.interval![0]).toBeGreaterThan(15);
    expect(cmr.settled).toBe(cmr.interval![0] >= 75 || cmr.interval![1] < 75 ? 'clear' : 'noise');
    expect(rival.figure).toBe('lead');
    expect(rival.interval).toEqual(rows[0]!.methods.provenance_root!.cama_lead_ci95!.cmr);
    const summary = summarizeChecks(checks).split('\n');
    const met = checks.filter((x) => x.pass);
    expect(summary[0]).toBe(
      `${met.length} of ${checks.length} targets met (${met.filter((x) => x.settled === 'clear').length} of them clearly: the 95% interval, a bootstrap over questions, lies wholly on the met side); ${checks.length - met.length} missed (${checks.filter((x) => !x.pass && x.settled === 'clear').length} clearly).`,
    );
    // Every miss, and every verdict met within noise, on a line of its own with its figure and interval.
    const listed = summary.filter((l) => l.startsWith('- '));
    expect(listed).toHaveLength(checks.filter((x) => !x.pass || x.settled === 'noise').length);
    for (const l of listed) expect(l).toMatch(/^- tiny p=[01] claims=(keep|none): .+: (lead )?-?\d+\.\d( points)?, 95% interval -?\d+\.\d to -?\d+\.\d \((clearly|within noise)\)$/);
    const table = renderProtocol(rows).split('\n');
    expect(table).toHaveLength(2 + rows.length);
    expect(table[2]).toMatch(/^\| tiny \| 1 \| keep \| 24 \/ \d+ \|/);
    // The last column: cama with the true slots (oracle_slots), its CMR and RS on the row.
    const slots = rows[0]!.methods.oracle_slots!;
    expect(table[2]).toMatch(new RegExp(`\\| ${slots.cmr!.toFixed(1)} / ${slots.rs!.toFixed(1)} \\|$`));
  });

  it('ablates the named sets with claims: each group zeroed beside cama on the same questions, its drop checked against the bounds', async () => {
    const ablations = { groups: ['text', 'stance', 'credibility:text'], sets: ['tiny'], maxDrop: { set: 'tiny', points: 15 }, minDrop: { set: 'tiny', group: 'text' as const, points: 10 } };
    const { dir, config } = tinyProtocol(13, { provenance: [0], claims: ['keep', 'none'], methods: ['majority_vote', 'cama'], ablations });
    const rows = await runProtocol({ config, configDir: dir, dir: path.join(dir, 'sets'), context: await loadEngine() });
    // Only the row with claims is ablated; the baselines are scored as ever.
    expect(Object.keys(rows[0]!.methods)).toEqual(['majority_vote', 'cama', 'cama_ablate_text', 'cama_ablate_stance', 'cama_ablate_credibility:text']);
    expect(Object.keys(rows[1]!.methods)).toEqual(['majority_vote', 'cama']);
    const m = rows[0]!.methods;
    // Two checks on the groups' largest share (≤ 15 each; the text zeroed for the credibility alone is no single
    // group, and is reported, not bounded) and one that the text is read (≥ 10), each on the drop in CMR points
    // with the paired interval of cama's lead over the ablated model.
    const checks = ablationChecks(rows, ablations);
    expect(checks.map((c) => c.what)).toEqual(['text zeroed: cama CMR drop ≤ 15', 'stance zeroed: cama CMR drop ≤ 15', 'text zeroed: cama CMR drop ≥ 10']);
    const stance = checks[1]!;
    expect(stance.value).toBeCloseTo(m.cama!.cmr! - m.cama_ablate_stance!.cmr!, 9);
    expect(stance.interval).toEqual(m.cama_ablate_stance!.cama_lead_ci95!.cmr);
    expect(stance.pass).toBe(stance.value! <= 15);
    expect(checks[2]!.pass).toBe(checks[2]!.value! >= 10);
    expect(checks.every((c) => c.figure === 'drop' && c.row === rows[0])).toBe(true);
    expect(describeCheck(stance)).toMatch(/^tiny p=0 claims=keep: stance zeroed: cama CMR drop ≤ 15: drop -?\d+\.\d points, 95% interval -?\d+\.\d to -?\d+\.\d \((clearly|within noise)\)$/);
    const table = renderAblations(rows, ablations)!.split('\n');
    expect(table.slice(2, 4)).toEqual(['| set | prov. | cama CMR | text | stance | credibility:text |', '|---|---|---|---|---|---|']);
    const cell = (x: number, i: [number, number]) => `${x.toFixed(1)} (${i[0].toFixed(1)} to ${i[1].toFixed(1)})`;
    const credibility = m['cama_ablate_credibility:text']!;
    const credibilityCell = cell(m.cama!.cmr! - credibility.cmr!, credibility.cama_lead_ci95!.cmr!);
    expect(table[4]).toBe(`| tiny | 0 | ${m.cama!.cmr!.toFixed(1)} | ${cell(checks[0]!.value!, checks[0]!.interval!)} | ${cell(stance.value!, stance.interval!)} | ${credibilityCell} |`);
    // The heuristic provider has no input features to zero: the same protocol runs without the ablations.
    const plain = await runProtocol({ config, configDir: dir, dir: path.join(dir, 'sets'), context: heuristicContext() });
    expect(Object.keys(plain[0]!.methods)).toEqual(['majority_vote', 'cama']);
    expect(ablationChecks(plain, ablations)).toEqual([]);
    expect(renderAblations(plain, ablations)).toBeNull();
  });

  it('with worker threads kept across its evaluations (protocol --workers), gives the rows of this thread alone', async () => {
    const ablations = { groups: ['text' as const], sets: ['tiny'], maxDrop: { set: 'tiny', points: 15 }, minDrop: { set: 'tiny', group: 'text' as const, points: 10 } };
    const { dir, config } = tinyProtocol(17, { provenance: [1, 0], claims: ['keep', 'none'], methods: ['majority_vote', 'cama', 'oracle_slots'], ablations });
    const run = { config, configDir: dir, dir: path.join(dir, 'sets'), context: await loadEngine() };
    const serial = await runProtocol(run);
    const workers = new EvalWorkers(1, { overrides: {} }, { minQueries: 0 });
    let scored = 0;
    try {
      const threaded = await runProtocol({ ...run, scorer: (store) => ((scored++, workers.scorer(store))) });
      // One scorer per evaluation: two rates, with and without claims.
      expect(scored).toBe(4);
      const withoutTimings = (rows: ProtocolRow[]) => rows.map((r) => ({ ...r, methods: Object.fromEntries(Object.entries(r.methods).map(([k, m]) => [k, { ...m, ms_per_query: 0 }])) }));
      expect(Object.keys(threaded[0]!.methods)).toEqual(['majority_vote', 'cama', 'oracle_slots', 'cama_ablate_text']);
      expect(withoutTimings(threaded)).toEqual(withoutTimings(serial));
    } finally {
      await workers.close();
    }
  });

  it('refuses ablations of a set the protocol does not have, or bounds on a set or group it does not ablate', () => {
    const dir = tempDir();
    const write = (ablations: object) => {
      const file = path.join(dir, 'p.json');
      fs.writeFileSync(file, JSON.stringify({ sets: [{ name: 'a', simulate: 'a.json' }, { name: 'b', simulate: 'b.json' }], provenance: [1], claims: ['keep'], methods: ['cama'], targets: TARGETS, ablations }));
      return () => readProtocol(file);
    };
    expect(write({ groups: ['text'], sets: ['c'] })).toThrow(/p\.json: ablations name the set "c", which the protocol does not have; sets: a, b/);
    expect(write({ groups: ['text'], sets: ['a'], maxDrop: { set: 'b', points: 15 } })).toThrow(/p\.json: ablations bound the set "b" but do not ablate it/);
    expect(write({ groups: ['text'], sets: ['a'], minDrop: { set: 'a', group: 'stance', points: 10 } })).toThrow(/names the group "stance", which ablations.groups leaves out/);
    expect(write({ groups: ['colour'], sets: ['a'] })).toThrow(/p\.json: not a valid protocol.*groups/s);
    expect(write({ groups: ['text', 'support:text'], sets: ['a'] })).toThrow(/p\.json: not a valid protocol.*unknown model part "support"; known: grouping, credibility.*ablations\.groups\[1\]/s);
    expect(write({ groups: ['text', 'credibility:text', 'grouping:text+metadata'], sets: ['a'] })()).toMatchObject({ ablations: { groups: ['text', 'credibility:text', 'grouping:text+metadata'] } });
    expect(write({ groups: ['text', 'metadata'], sets: ['a', 'b'], minDrop: { set: 'b', group: 'text', points: 10 } })()).toMatchObject({ ablations: { sets: ['a', 'b'] } });
  });

  it('--against scores a second engine on the same questions: paired leads per row, and its own targets', async () => {
    const { dir, config } = tinyProtocol(11, { provenance: [0.5], claims: ['keep'], methods: ['provenance_root', 'cama'] });
    const context = heuristicContext();
    const scored: Array<{ row: ProtocolRow; scored: ScoredQuestions }> = [];
    const run = (against: Parameters<typeof againstMethod>[0]) =>
      runProtocol({ config, configDir: dir, dir: path.join(dir, 'sets'), context, extraMethods: [againstMethod(against)], onScored: (row, s) => void scored.push({ row, scored: s }) });
    // The same engine against itself: every answer the same, so every paired lead is exactly 0 and
    // nothing is settled either way, though each rate alone is uncertain.
    const same = await run({ ...context, label: 'itself' });
    const a = same[0]!.methods;
    expect(a.cama_against!.cama_lead_ci95).toEqual({ accuracy: [0, 0], cmr: [0, 0], rs: [0, 0] });
    expect(a.cama!.ci95!.accuracy![1] - a.cama!.ci95!.accuracy![0]).toBeGreaterThan(10);
    const table = renderComparison(same)!.split('\n');
    expect(table[2]).toMatch(/^\| tiny \| 0\.5 \| keep \| \d+\.\d vs \d+\.\d: \+0\.0 \(0\.0 to 0\.0\) \|/);
    // Pooled over the rows, the same: a lead of exactly 0, settled nowhere.
    expect(scored.map((x) => x.scored.ids.length)).toEqual([24]);
    expect(renderPooled(pooledComparison(scored))).toContain('| with claims | 1 | +0.0 (0.0 to 0.0) | +0.0 (0.0 to 0.0) | +0.0 (0.0 to 0.0) |');
    expect(table.at(-1)).toBe(
      "Of 3 paired figures, the run's model is clearly better on 0 and clearly worse on 0 (the interval of the difference excludes 0); the rest are within noise. Between two equally good models about 0.2 of 3 would come out settled by chance, half each way.",
    );
    // Judged as the subject, the second engine meets the same targets as cama, but its leads over the
    // rivals have no interval: the run's paired leads are cama's.
    const mine = protocolChecks(same, config.targets);
    const theirs = protocolChecks(same, config.targets, 'cama_against');
    expect(theirs.map((x) => [x.what, x.pass, x.value])).toEqual(mine.map((x) => [x.what, x.pass, x.value]));
    expect(theirs.find((x) => x.what === 'cama CMR ≥ provenance_root')!.settled).toBe('unknown');
    expect(renderComparison(await runProtocol({ config, configDir: dir, dir: path.join(dir, 'sets'), context }))).toBeNull();
  });

  it('checks invariance: decisions under a rewrite, and the CMR that shuffled metadata costs on average over its permutations', async () => {
    const { dir, config } = tinyProtocol(9, {
      provenance: [0.5],
      claims: ['keep'],
      methods: ['cama'],
      invariance: { set: 'tiny', families: ['terse', 'prose'], maxChanged: 5, maxShuffleCost: 10, shuffleSeeds: [1, 2, 3] },
    });
    // The set names its own seed and families beside its file, as validation-worlds.json's sets do.
    config.sets = [{ ...config.sets[0]!, seed: 31, families: ['plain', 'qa'] }];
    const r = (await runInvariance({ config, configDir: dir, dir: path.join(dir, 'sets'), context: heuristicContext() }))!;
    expect(r.rewrites.map((w) => [w.family, w.queries])).toEqual([['terse', 24], ['prose', 24]]);
    // The bundles rewritten are the set's (its seed and families, not its file's), each in one other family.
    const written = (name: string) => {
      const c = manifestOf(path.join(dir, 'sets', name)).config;
      return [c.seed, c.wording.families, c.wording.rewriteAs ?? null];
    };
    expect(written('tiny-invariance')).toEqual([31, ['plain', 'qa'], null]);
    expect(written('tiny-as-terse')).toEqual([31, ['plain', 'qa'], 'terse']);
    // Each share of changed decisions, their mean and the shuffle's cost come with a 95% interval around them.
    const around = (x: number | null, i: [number, number] | null) => {
      expect(i![0]).toBeLessThanOrEqual(x!);
      expect(i![1]).toBeGreaterThanOrEqual(x!);
    };
    for (const w of r.rewrites) around(w.changed, w.changedCi95);
    expect(r.meanChanged).toBeCloseTo((r.rewrites[0]!.changed + r.rewrites[1]!.changed) / 2, 9);
    around(r.meanChanged, r.meanChangedCi95);
    around(r.shuffle.cost, r.shuffle.costCi95);
    expect(r.shuffle.draws.map((d) => d.seed)).toEqual([1, 2, 3]);
    // The cost is the CMR kept minus the mean over the permutations, each of which is reported.
    const mean = r.shuffle.draws.reduce((a, d) => a + d.shuffledCmr!, 0) / 3;
    expect(r.shuffle.shuffledCmr).toBeCloseTo(mean, 9);
    expect(r.shuffle.cost).toBeCloseTo(r.shuffle.cmr! - mean, 9);
    const text = renderInvariance(r);
    expect(text).toContain('on average over 3 permutations');
    expect(text).toMatch(/^\| mean over the families \| \| \d+\.\d \(95% \d+\.\d to \d+\.\d\) \| (yes|NO), (clearly|within noise) \| \|$/m);
    expect(text).toMatch(/cost -?\d+\.\d points \(95% -?\d+\.\d to -?\d+\.\d\) \(bound 10: (within|OUT OF BOUND), (clearly|within noise)\)/);
    expect(text).toMatch(/Cost per permutation \(seed: points\): 1: -?\d+\.\d, 2: -?\d+\.\d, 3: -?\d+\.\d\./);
  });

  it('pools the rewrite over more worlds of the invariance set, and judges the shuffle on its own', async () => {
    const invariance = { set: 'tiny', families: ['terse'], maxChanged: 5, maxShuffleCost: 10, shuffleSeeds: [1] };
    const rest = { provenance: [0.5], claims: ['keep' as const], methods: ['cama'] };
    const run = async (seed: number, worlds?: number[]) => {
      const { dir, config } = tinyProtocol(seed, { ...rest, invariance: { ...invariance, ...(worlds ? { worlds } : {}) } });
      return { dir, r: (await runInvariance({ config, configDir: dir, dir: path.join(dir, 'sets'), context: heuristicContext() }))! };
    };
    const [own, other, pooled] = await Promise.all([run(9), run(11), run(9, [11])]);
    expect(pooled.r.worlds).toEqual([9, 11]);
    expect(own.r.worlds).toEqual([9]);
    // Every question of both worlds counts once: the pooled share is the two worlds' shares by their questions.
    const [a, b, p] = [own.r.rewrites[0]!, other.r.rewrites[0]!, pooled.r.rewrites[0]!];
    expect(p.queries).toBe(a.queries + b.queries);
    expect(p.changed).toBeCloseTo((a.changed * a.queries + b.changed * b.queries) / p.queries, 9);
    expect(p.singlePassChanged).toBeCloseTo((a.singlePassChanged * a.queries + b.singlePassChanged * b.queries) / p.queries, 9);
    expect(pooled.r.meanChanged).toBeCloseTo(p.changed, 9);
    // The other world is its own bundle, at its seed; the shuffle is the set's own world's.
    const seedOf = (name: string) => manifestOf(path.join(pooled.dir, 'sets', name)).config.seed;
    expect([seedOf('tiny-invariance'), seedOf('tiny-w11-invariance'), seedOf('tiny-w11-as-terse')]).toEqual([9, 11, 11]);
    expect(pooled.r.shuffle).toEqual(own.r.shuffle);
    expect(renderInvariance(pooled.r)).toContain('Invariance on tiny in 2 worlds (seeds 9, 11; their questions pooled)');
    expect(renderInvariance(own.r)).not.toContain('worlds');
    // A world named twice, or the set's own, would count its questions twice: refused, naming the seed.
    await expect(run(9, [9])).rejects.toThrow("invariance.worlds names the world of seed 9 twice (the set tiny's own seed is 9)");
    await expect(run(9, [11, 11])).rejects.toThrow('seed 11 twice');
  });

  it('keeps a SituatedQA part apart, and reuses its bundle while nothing changed', async () => {
    const dir = tempDir();
    const people = ['Ann Lee', 'Bob Roe', 'Cy Poe', 'Di Wu', 'Ed Yu', 'Flo Ng', 'Gus Ha', 'Hal Ito', 'Ida Mo', 'Jo Kim'];
    const rows = Array.from({ length: 40 }, (_, i) => ({
      question: `who is the mayor of town ${i}`,
      id: i + 1,
      cur_answers: [people[i % 10]],
      prev_answers: [people[(i + 3) % 10]],
    }));
    fs.writeFileSync(path.join(dir, 'timelines.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    const run = (part: 'validation' | 'all') =>
      runProtocol({
        config: {
          sets: [{ name: 'sqa', situatedqa: 'timelines.jsonl', part, seed: 3, families: ['plain', 'terse'] }],
          provenance: [1],
          claims: ['keep'],
          methods: ['majority_vote'],
          targets: TARGETS,
        },
        configDir: dir,
        dir: path.join(dir, 'sets'),
        context: heuristicContext(),
      });
    const memories = path.join(dir, 'sets', 'sqa-p1', 'memories.jsonl');
    const validation = await run('validation');
    const written = fs.statSync(memories).mtimeMs;
    expect((await run('validation'))[0]!.queries).toBe(validation[0]!.queries);
    expect(fs.statSync(memories).mtimeMs).toBe(written); // reused
    // Only the questions of the part; in the families asked for.
    const all = await run('all');
    expect(validation[0]!.queries).toBeGreaterThan(0);
    expect(validation[0]!.queries).toBeLessThan(all[0]!.queries);
    const manifest = manifestOf(path.join(dir, 'sets', 'sqa-p1'));
    expect(manifest.part).toBe('all');
    expect(Object.keys(manifest.wordingFamilies).sort()).toEqual(['plain', 'terse']);
  });
});
