// The inspector's explanation (renderer/inspector/findings.ts): each finding on a small step built for it,
// then every step of every demo episode, where the gauge's counts must equal its dots and the majority
// vote's counts, and the cases the issue names read as they should.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbenchService } from '../../electron/backend/service';
import type { StepRecord } from '../../shared/episode';
import type { EpisodeView } from '../../shared/views';
import { majorityOf, trueFactors } from '../../renderer/inspector/derive';
import {
  type Arbitration,
  addedNothingReason,
  backedBy,
  backing,
  backingMajority,
  explain,
  stepEffect,
  sufficiencyTest,
  whatIfCause,
} from '../../renderer/inspector/findings';
import { caller, newService } from '../backend/helpers';
import { ROOT } from '../cli/helpers';
import { tempFolder } from '../cleanup';
import { openDemoCopy } from '../demo-store';

/** A one-hot row for slot j of J. */
const oneHot = (j: number, J = 4): number[] => Array.from({ length: J }, (_, k) => (k === j ? 1 : 0));

/** A step of memories m1.. with the given support rows, scorers and slots; P from the logits given. */
function makeStep(opts: {
  hypotheses: string[];
  support: number[][];
  scorer?: string[];
  assignment: number[][];
  posterior: number[];
  nEff?: number;
  entropy?: number;
  sufficient?: boolean;
  kappa?: number[];
}): Arbitration {
  const K = opts.support.length;
  const J = opts.assignment[0]?.length ?? 4;
  return {
    sliceIds: Array.from({ length: K }, (_, i) => `m${i + 1}`),
    hypotheses: opts.hypotheses,
    support: opts.support,
    scorer: opts.scorer ?? opts.support.map(() => 'claims'),
    assignment: opts.assignment,
    kappa: opts.kappa ?? opts.assignment.map((r) => Math.max(...r)),
    slotPresence: Array.from({ length: J }, (_, j) => Math.max(...opts.assignment.map((r) => r[j] ?? 0))),
    nEff: opts.nEff ?? 2,
    reliability: Array.from({ length: J }, () => 0.8),
    logits: opts.posterior.map((p) => Math.log(p)),
    posterior: opts.posterior,
    entropy: opts.entropy ?? 0.3,
    sufficient: opts.sufficient ?? true,
  };
}

const kinds = (e: { findings: Array<{ kind: string }> }): string[] => e.findings.map((f) => f.kind);

describe('findings on steps built for each case', () => {
  it('names a slot that holds memories backing different answers', () => {
    // Three entries say dawn, one says midnight; the midnight one sits in dawn's slot S1.
    const step = makeStep({
      hypotheses: ['dawn', 'midnight'],
      support: [[1, -1], [1, -1], [1, -1], [-1, 1], [-1, 1]],
      assignment: [oneHot(0), oneHot(0), oneHot(0), oneHot(0), oneHot(1)],
      posterior: [0.3, 0.7],
    });
    const e = explain({ step, gold: 'midnight', thresholds: { tauN: 2, tauH: 0.7 } });
    const shared = e.findings.find((f) => f.kind === 'shared-slot');
    expect(shared?.title).toBe('S1 shared by dawn and midnight');
    expect(shared?.text).toContain('dawn: 3 entries; midnight: 1 entry');
    expect(shared?.slots).toEqual([0]);
    expect(e.sentence).toContain('slot S1 holds memories backing different answers');
    // Answers that only share slots among themselves raise nothing.
    const clean = explain({ step: { ...step, assignment: [oneHot(0), oneHot(0), oneHot(0), oneHot(1), oneHot(2)] } });
    expect(kinds(clean)).not.toContain('shared-slot');
  });

  it('says when the gold answer is not among the hypotheses, even where vote and CAMA agree', () => {
    const step = makeStep({ hypotheses: ['grey', 'blue'], support: [[1, -1], [-1, 1], [-1, 1]], assignment: [oneHot(0), oneHot(1), oneHot(2)], posterior: [0.2, 0.8] });
    const e = explain({ step, gold: 'green' });
    expect(e.findings.find((f) => f.kind === 'gold-absent')?.title).toBe('gold "green" not among the hypotheses');
    expect(e.sentence).toMatch(/^The vote and CAMA agree on blue/);
    expect(e.sentence).toContain('the gold answer is not among the hypotheses');
    // Gold present (any case), or unknown: no such finding.
    expect(kinds(explain({ step, gold: 'Blue' }))).not.toContain('gold-absent');
    expect(kinds(explain({ step, gold: null }))).not.toContain('gold-absent');
  });

  it('flags a diffuse Z (no evidence row above 0.5), ignoring the uniform rows of memories that state nothing', () => {
    const spread = [0.45, 0.35, 0.2, 0];
    const step = makeStep({
      hypotheses: ['a', 'b'],
      support: [[1, -1], [-1, 1], [0, 0]],
      scorer: ['claims', 'claims', 'none'],
      assignment: [spread, [0.3, 0.4, 0.3, 0], [0.25, 0.25, 0.25, 0.25]],
      kappa: [0.12, 0.08, 0],
      posterior: [0.5, 0.5],
    });
    const e = explain({ step });
    const d = e.findings.find((f) => f.kind === 'diffuse-z');
    expect(d?.text).toContain("no memory's strongest slot holds more than 0.5");
    expect(d?.text).toContain('κ 0.08–0.12');
    // One clear evidence row and confident κ: not diffuse, whatever the non-evidence rows look like.
    const clear = { ...step, assignment: [oneHot(0), oneHot(1), [0.25, 0.25, 0.25, 0.25]], kappa: [1, 1, 0] };
    expect(kinds(explain({ step: clear }))).not.toContain('diffuse-z');
  });

  it('names the failing half of the sufficiency rule', () => {
    const base = makeStep({ hypotheses: ['a'], support: [[1]], assignment: [oneHot(0)], posterior: [1] });
    const lowN = { ...base, nEff: 1, entropy: 0.1, sufficient: false };
    expect(sufficiencyTest(lowN, { tauN: 2, tauH: 0.7 })).toEqual({ sufficient: false, failing: ['N_eff 1.00 < τ_N 2'], holding: ['H(P) 0.100 ≤ τ_H 0.7'] });
    expect(explain({ step: lowN, thresholds: { tauN: 2, tauH: 0.7 } }).findings.find((f) => f.kind === 'insufficient')).toMatchObject({
      title: 'insufficient: N_eff',
      text: 'Not sufficient: N_eff 1.00 < τ_N 2 (H(P) 0.100 ≤ τ_H 0.7 holds).',
    });
    const highH = { ...base, nEff: 3, entropy: 0.84, sufficient: false };
    expect(explain({ step: highH, thresholds: { tauN: 2, tauH: 0.7 } }).findings.find((f) => f.kind === 'insufficient')?.title).toBe('insufficient: H(P)');
    const both = { ...base, nEff: 1, entropy: 0.9, sufficient: false };
    expect(sufficiencyTest(both, { tauN: 2, tauH: 0.7 }).failing).toEqual(['N_eff 1.00 < τ_N 2', 'H(P) 0.900 > τ_H 0.7']);
    // Just below the threshold: printed with the decimals that show it.
    expect(sufficiencyTest({ ...base, nEff: 1.999997, entropy: 0.47, sufficient: false }, { tauN: 2, tauH: 0.7 }).failing).toEqual(['N_eff 1.999997 < τ_N 2']);
    const ok = { ...base, nEff: 3, entropy: 0.1, sufficient: true };
    expect(explain({ step: ok, thresholds: { tauN: 2, tauH: 0.7 } }).findings.find((f) => f.kind === 'sufficient')?.text).toBe(
      'Sufficient: N_eff 3.00 ≥ τ_N 2 and H(P) 0.100 ≤ τ_H 0.7.',
    );
  });

  it('says why a step that took an action added nothing', () => {
    const expand = { kind: 'expand' as const, label: 'Expand("north gate")', target: 'north gate', probability: 0.7 };
    expect(addedNothingReason({ chosen: expand, added: { memoryIds: [], edges: [] } })).toContain('Expand("north gate") found no memory outside the slice');
    const trace = { kind: 'trace' as const, label: 'Trace(m3)', target: 'm3', probability: 1 };
    expect(addedNothingReason({ chosen: trace, added: { memoryIds: [], edges: [] } })).toContain('the recorded parent is not in the store');
    expect(addedNothingReason({ chosen: expand, added: { memoryIds: ['m9'], edges: [] } })).toBeNull();
    expect(addedNothingReason({ chosen: { kind: 'stop', label: 'Stop', probability: 1 }, added: { memoryIds: [], edges: [] } })).toBeNull();
    const step = makeStep({ hypotheses: ['a'], support: [[1]], assignment: [oneHot(0)], posterior: [1] });
    expect(kinds(explain({ step, record: { chosen: expand, added: { memoryIds: [], edges: [] } } }))).toContain('added-nothing');
  });

  it("explains a what-if's N_eff change by the factors that merged", () => {
    const stored = makeStep({
      hypotheses: ['a', 'b'],
      support: [[1, -1], [-1, 1], [-1, 1]],
      assignment: [oneHot(0), oneHot(1), oneHot(2)],
      posterior: [0.2, 0.8],
      nEff: 3,
    });
    const merged = { ...stored, assignment: [oneHot(0), oneHot(1), oneHot(1)], nEff: 2, posterior: [0.35, 0.65] };
    const edits = { disabled: [], addEdges: [{ child: 'm3', parent: 'm2' }], removeEdges: [] };
    expect(whatIfCause(stored, merged)).toEqual(['S2 and S3 merged into S2 (m2 and m3 now count as one factor)']);
    const e = explain({ step: merged, whatIf: { stored, edits } });
    expect(e.findings[0]).toMatchObject({ kind: 'whatif-neff', title: 'N_eff 3.000 → 2.000' });
    expect(e.findings[0]?.text).toBe('N_eff falls from 3.000 to 2.000 (−1.000) after adding edge m3←m2: S2 and S3 merged into S2 (m2 and m3 now count as one factor).');
    // A relabelled but identical partition is no cause at all; a split is.
    const relabelled = { ...stored, assignment: [oneHot(3), oneHot(0), oneHot(1)] };
    expect(whatIfCause(stored, relabelled)).toEqual([]);
    expect(whatIfCause(merged, stored)).toEqual(['S2 split into S2 (m2) and S3 (m3): the parts now count separately']);
    // One member leaving a slot of three: the text says which one left, not that all of them now count apart.
    const three = makeStep({ hypotheses: ['a'], support: [[1], [1], [1]], assignment: [oneHot(0), oneHot(0), oneHot(0)], posterior: [1], nEff: 1 });
    const left = { ...three, assignment: [oneHot(0), oneHot(2), oneHot(2)], nEff: 2 };
    expect(whatIfCause(three, left)).toEqual(['S1 split into S1 (m1) and S3 (m2 and m3): the parts now count separately']);
    // One slot merged and another split: as many factors as before, and a change below the third decimal is none.
    const pair = { ...stored, assignment: [oneHot(0), oneHot(0), oneHot(1)], nEff: 2 };
    const moved = { ...stored, assignment: [oneHot(0), oneHot(1), oneHot(1)], nEff: 1.99999 };
    const swap = explain({ step: moved, whatIf: { stored: pair, edits } }).findings[0];
    expect(swap).toMatchObject({ kind: 'whatif-neff', title: 'N_eff unchanged (2.000)' });
    expect(swap?.text).toMatch(/^N_eff stays 2\.000 to three decimals after adding edge m3←m2; S1 and S2 merged into S2 .*, with as many factors as before\.$/);
    // A merge with no split below the third decimal: unchanged as shown, but not "as many factors as before".
    const merging = explain({ step: { ...stored, assignment: [oneHot(0), oneHot(1), oneHot(1)], nEff: 2.9999 }, whatIf: { stored, edits } }).findings[0];
    expect(merging?.text).toBe('N_eff stays 3.000 to three decimals after adding edge m3←m2; S2 and S3 merged into S2 (m2 and m3 now count as one factor).');
    // The difference printed is the printed values' difference: 2.0004 → 2.0006 rises by 0.001, not "0.000".
    const nudged = explain({ step: { ...stored, nEff: 2.0006 }, whatIf: { stored: { ...stored, nEff: 2.0004 }, edits } }).findings[0];
    expect(nudged?.text).toMatch(/^N_eff rises from 2\.000 to 2\.001 \(\+0\.001\) after adding edge m3←m2/);
  });

  it('counts only memories that state a value: a support row from a memory that states nothing backs nothing', () => {
    // m3 states nothing (scorer none) yet carries a stray positive score, as a neural scorer could give it.
    const step = makeStep({
      hypotheses: ['red', 'amber'],
      support: [[1, -1], [1, -1], [0.4, 0.1], [-1, 1]],
      scorer: ['claims', 'claims', 'none', 'claims'],
      assignment: [oneHot(0), oneHot(0), oneHot(0), oneHot(1)],
      posterior: [0.4, 0.6],
    });
    const b = backing(step);
    expect(b.map((x) => [x.hypothesis, x.count, x.backers.map((y) => y.id)])).toEqual([
      ['red', 2, ['m1', 'm2']],
      ['amber', 1, ['m4']],
    ]);
    expect(backingMajority(b)).toEqual({ hypothesis: 'red', count: 2, tied: [] });
    expect(explain({ step }).sentence).toContain("The vote favours red with 2 entries, but they share slot S1");
  });

  it('says entries that fall in two slots count as two sources, not that they share', () => {
    // m1, m2 copies of one source (S1), m3 a second source (S2): three entries for red, two sources.
    const step = makeStep({
      hypotheses: ['red', 'amber'],
      support: [[1, -1], [1, -1], [1, -1], [-1, 1], [-1, 1]],
      assignment: [oneHot(0), oneHot(0), oneHot(1), oneHot(2), oneHot(3)],
      posterior: [0.3, 0.7],
    });
    const e = explain({ step });
    expect(e.sentence).toMatch(/^The vote favours red with 3 entries, but they fall in 2 slots \(S1, S2\);/);
    expect(e.sentence).not.toMatch(/share 2 slots/);
    expect(e.findings.find((f) => f.kind === 'collapsed')?.text).toBe("red's 3 entries fall in 2 slots (S1, S2): they count as 2 independent sources.");
  });

  it('calls a decision within 0.1 of P a near-tie, and gives ℓ the decimals that tell the two apart', () => {
    const step = { ...makeStep({ hypotheses: ['Esme', 'Cleo'], support: [[1, -1], [1, -1], [-1, 1]], assignment: [oneHot(0), oneHot(0), oneHot(1)], posterior: [0.49, 0.51] }), logits: [0.0012, 0.0031] };
    const sentence = explain({ step }).sentence;
    expect(sentence).toContain("→ ℓ = +0.003 vs +0.001, CAMA picks Cleo (P = 0.51 vs 0.49): a near-tie with Esme (P = 0.49, within 0.1 of the pick's)");
    // The runner-up need not be the vote's pick the sentence compares with: it is named (demo q21 at t = 3).
    const three = makeStep({ hypotheses: ['green', 'amber', 'red'], support: [[1, -1, -1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], assignment: [oneHot(0), oneHot(0), oneHot(1), oneHot(2)], posterior: [0.18, 0.42, 0.4] });
    expect(explain({ step: three }).sentence).toContain("CAMA picks amber (P = 0.42 vs 0.18): a near-tie with red (P = 0.40, within 0.1 of the pick's)");
    const clear = makeStep({ hypotheses: ['Esme', 'Cleo'], support: [[1, -1], [1, -1], [-1, 1]], assignment: [oneHot(0), oneHot(0), oneHot(1)], posterior: [0.3, 0.7] });
    expect(explain({ step: clear }).sentence).not.toContain('near-tie');
  });

  it('refuses a step whose arrays disagree', () => {
    const step = makeStep({ hypotheses: ['a', 'b'], support: [[1, -1]], assignment: [oneHot(0)], posterior: [1, 0] });
    expect(() => explain({ step: { ...step, posterior: [1] } })).toThrow(/2 hypotheses vs 1 posterior values/);
  });

  it('gives the effect of a step: ΔN_eff and ΔP for the leading hypotheses, new ones marked', () => {
    const before = makeStep({ hypotheses: ['high'], support: [[1]], assignment: [oneHot(0)], posterior: [1], nEff: 1 });
    const after = makeStep({
      hypotheses: ['high', 'critical', 'low'],
      support: [[1, -1, -1], [-1, 1, -1], [-1, -1, 1]],
      assignment: [oneHot(0), oneHot(1), oneHot(2)],
      posterior: [0.2, 0.7, 0.1],
      nEff: 4,
    });
    const e = stepEffect(before, after);
    expect(e.dNEff).toBe(3);
    expect(e.dP.map((d) => [d.hypothesis, d.before, Number(d.delta.toFixed(3))])).toEqual([
      ['high', 1, -0.8],
      ['critical', null, 0.7],
    ]);
  });
});

describe('findings on every step of the demo', () => {
  let service: WorkbenchService;
  const { ok } = caller(() => service);
  const views: EpisodeView[] = [];
  const byQuery = (q: string): EpisodeView => {
    const v = views.find((x) => x.query.id === q);
    if (!v) throw new Error(`the demo has no episode for ${q}`);
    return v;
  };
  const thresholdsOf = (v: EpisodeView) => ({ tauN: Number(v.episode.config.tauN), tauH: Number(v.episode.config.tauH) });

  beforeAll(async () => {
    service = newService(tempFolder('wb-findings-'));
    await openDemoCopy(service);
    for (const row of await ok('queries')) if (row.episodeId) views.push(await ok('episode', { id: row.episodeId }));
  });
  afterAll(() => service?.close());

  it('shows as many dots as its count on every step, and that count is the majority vote\'s', () => {
    let steps = 0;
    for (const v of views) {
      v.episode.steps.forEach((stored: StepRecord, t) => {
        // As the inspector shows it: with what each memory states, as the vote counts it.
        const step = { ...stored, stated: v.stated[t] };
        const e = explain({ step, gold: v.query.answer ?? null, thresholds: thresholdsOf(v), record: step });
        const votes = v.votes[t] ?? [];
        for (const b of e.backing) {
          const where = `episode ${v.episode.id} t=${t} ${b.hypothesis}`;
          expect(b.count, where).toBe(b.backers.length);
          // Every dot is a memory that states a value for the key.
          for (const x of b.backers) expect(step.scorer[x.row], where).not.toBe('none');
          expect(b.count, where).toBe(votes.find((x) => x.value.toLowerCase() === b.hypothesis.toLowerCase())?.count ?? 0);
        }
        expect(backingMajority(e.backing)?.hypothesis ?? null, `episode ${v.episode.id} t=${t}`).toBe(majorityOf(votes).answer);
        // The named halves agree with the recorded flag: a failing half exactly when the step is not sufficient.
        if (step.hypotheses.length > 0) expect(sufficiencyTest(step, thresholdsOf(v)).failing.length === 0, `episode ${v.episode.id} t=${t}`).toBe(step.sufficient);
        steps++;
      });
    }
    expect(views.length).toBe(80);
    expect(steps).toBeGreaterThan(150);
  });

  it('q16 at t = 0: dawn\'s 6 entries are one slot (S1), midnight\'s 2 (an observation and its relay) one more (S2), and no slot mixes them', () => {
    const v = byQuery('q16');
    const step = v.episode.steps[0] as StepRecord;
    const e = explain({ step, gold: v.query.answer, thresholds: thresholdsOf(v), record: step });
    expect(e.backing.map((b) => [b.hypothesis, b.count, b.slots])).toEqual([
      ['dawn', 6, [0]],
      ['midnight', 2, [1]],
    ]);
    expect(e.findings.filter((f) => f.kind === 'collapsed').map((f) => f.title)).toEqual(['dawn: 6 entries, 1 factor', 'midnight: 2 entries, 1 factor']);
    expect(kinds(e)).not.toContain('shared-slot');
    // ρ is the shipped model's reliability of each slot, read from the record (it changes with the model).
    // γ is the credibility of the slot's best statement, also the model's: the term of ℓ the slot gives is ρ·e·γ·β.
    const two = (x: number | undefined) => (x as number).toFixed(2).replace('.', '\\.');
    expect(e.sentence).toMatch(
      new RegExp(
        `^The vote favours dawn with 6 entries, but they share slot S1 \\(e=1\\.00, ρ=${two(step.reliability[0])}, γ=${two(step.slotCredibility?.[0])}\\); midnight's 2 entries share slot S2 \\(e=1\\.00, ρ=${two(step.reliability[1])}, γ=${two(step.slotCredibility?.[1])}\\).*CAMA picks midnight`,
      ),
    );
  });

  it('q8 at t = 0: red\'s 7 entries share one slot, amber\'s 2 are 2 separate slots, and CAMA picks amber', () => {
    const v = byQuery('q8');
    const step = v.episode.steps[0] as StepRecord;
    const e = explain({ step, gold: v.query.answer, thresholds: thresholdsOf(v) });
    expect(e.backing.filter((b) => b.count > 1).map((b) => [b.hypothesis, b.count, b.slots])).toEqual([
      ['red', 7, [0]],
      ['amber', 2, [1, 2]],
    ]);
    expect(kinds(e)).not.toContain('shared-slot');
    expect(e.sentence).toMatch(/^The vote favours red with 7 entries, but they share slot S1 .*; amber's 2 entries are 2 separate slots \(S2, S3\) .*CAMA picks amber/);
  });

  it('q55: the gold answer green is in no hypothesis, and the finding says so', () => {
    const v = byQuery('q55');
    const step = v.episode.steps[0] as StepRecord;
    expect(v.query.answer).toBe('green');
    const e = explain({ step, gold: v.query.answer, thresholds: thresholdsOf(v) });
    expect(e.findings.find((f) => f.kind === 'gold-absent')?.text).toContain('"green" is not among this step\'s hypotheses (grey and blue)');
  });

  it('q8 at t = 0: an added edge merges amber\'s two observations into one source, and the finding names the edge, the merge and the fall in N_eff', async () => {
    const v = byQuery('q8');
    const stored = v.episode.steps[0] as StepRecord;
    const slotOf = (step: Pick<StepRecord, 'assignment' | 'sliceIds'>, id: string) => {
      const z = step.assignment[step.sliceIds.indexOf(id)] as number[];
      return z.indexOf(Math.max(...z));
    };
    expect(slotOf(stored, 'm21')).not.toBe(slotOf(stored, 'm22'));
    const edits = { disabled: [], addEdges: [{ child: 'm22', parent: 'm21' }], removeEdges: [] };
    const w = await ok('whatIf', { episodeId: v.episode.id, t: 0, ...edits });
    expect(slotOf(w.step, 'm21')).toBe(slotOf(w.step, 'm22'));
    // The two observations now count as one source: N_eff falls by one, and the finding names the edge and the merge.
    const f = explain({ step: w.step, gold: v.query.answer, whatIf: { stored, edits } }).findings[0];
    expect(f?.kind).toBe('whatif-neff');
    expect(f?.text).toBe('N_eff falls from 3.000 to 2.000 (−1.000) after adding edge m22←m21: S2 and S3 merged into S2 (m21 and m22 now count as one factor).');
  });
});

describe('the ground-truth overlay', () => {
  it('names each member\'s true factor and counts the distinct factors among the members that state something', () => {
    const memories = { a: { factor: 'f1' }, b: { factor: 'f1' }, c: { factor: 'f2' }, d: { factor: 'f3' }, e: {} };
    const step = { sliceIds: ['a', 'b', 'c', 'd', 'e'] };
    const evidence = new Set([0, 1, 2, 4]); // d states nothing about the key: its factor is not a source here
    const t = trueFactors(step, memories, (i) => evidence.has(i));
    expect(t.known).toBe(true);
    expect([...t.byMemory]).toEqual([['a', 'f1'], ['b', 'f1'], ['c', 'f2'], ['d', 'f3']]);
    expect(t.evidenceFactors).toBe(2);
    expect(trueFactors(step, { a: {} }, () => true)).toEqual({ byMemory: new Map(), evidenceFactors: 0, known: false });
  });
});

describe('a memory that states two values for the key', () => {
  let service: WorkbenchService;
  const { ok, finished } = caller(() => service);
  afterAll(() => service?.close());

  it('backs both, as the vote counts it for both, though its support row averages them to zero', async () => {
    const dir = tempFolder('wb-findings-two-');
    service = newService(dir);
    await ok('openStore', { path: join(dir, 'two.sqlite') });
    expect((await finished(await ok('startImport', { dir: join(ROOT, 'test/fixtures/bundles/text-only') }))).state).toBe('done');
    const row = (await ok('queries')).find((q) => q.id === 'lyon-free');
    const v = await ok('episode', { id: row?.episodeId });
    const stored = v.episode.steps[0] as StepRecord;
    const i = stored.sliceIds.indexOf('x1'); // "The mayor of Porto is Ines Vidal."
    expect(v.stated[0]?.[i]).toEqual(['Porto', 'Ines Vidal']);
    const both = ['Porto', 'Ines Vidal'].map((h) => stored.hypotheses.indexOf(h));
    expect(both.every((h) => h >= 0 && (stored.support[i]?.[h] ?? 1) <= 0)).toBe(true);
    // Read from the support row alone, x1 backs neither, and the count falls short of the vote's.
    expect(backedBy(stored, i)).toBeNull();
    const step = { ...stored, stated: v.stated[0] };
    expect(backedBy(step, i)).toBe(stored.hypotheses.filter((h) => h === 'Porto' || h === 'Ines Vidal').join(' / '));
    const e = explain({ step, gold: v.query.answer ?? null, record: step });
    for (const b of e.backing) {
      expect(b.count, b.hypothesis).toBe(v.votes[0]?.find((x) => x.value.toLowerCase() === b.hypothesis.toLowerCase())?.count ?? 0);
      if (b.hypothesis === 'Porto' || b.hypothesis === 'Ines Vidal') expect(b.backers.map((x) => x.id)).toContain('x1');
    }
  });
});
