// The learned policy in the engine: loadEngine() runs the shipped models/policy.onnx by default (named
// learned:<name>, not a stand-in), episodes record ITS probabilities, `cama_wo_policy` runs the heuristic
// policy, the policy card's τ_N / τ_H apply only with the evidence model it was trained with, and a
// policy of another contract is refused naming both versions.
import fs from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../electron/engine/episode';
import { HEURISTIC_POLICY, heuristicPolicy } from '../../electron/engine/policy';
import { evaluate, type QueryResult } from '../../electron/eval/harness';
import { resolveMethods } from '../../electron/eval/methods';
import { OnnxEvidenceModel } from '../../electron/model/onnx-model';
import { readPolicyCard } from '../../electron/policy/card';
import { stepFeatures } from '../../electron/policy/features';
import { OnnxRecoveryPolicy } from '../../electron/policy/onnx-policy';
import { describeSetup, loadEngine } from '../../electron/runtime/setup';
import { softmax } from '../../shared/math/softmax';
import type { Store } from '../../electron/store/store';
import type { EpisodeRecord } from '../../shared/episode';
import { simulateBundle, storeOf, tempDir } from '../model/helpers';
import { spy } from './helpers';

const MODELS = path.resolve('models');
let dir: string;
let store: Store;

beforeAll(async () => {
  dir = tempDir('cama-policy-engine-');
  store = storeOf(await simulateBundle(path.join(dir, 'sim')));
});

afterAll(() => {
  store.close();
});

/** A models folder with the shipped evidence model, and the shipped policy with its card edited by `edit`. */
function modelsWith(name: string, edit?: (card: Record<string, unknown>) => void, policyBytes?: Uint8Array): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  for (const f of ['default.onnx', 'default.card.json']) fs.copyFileSync(path.join(MODELS, f), path.join(folder, f));
  fs.writeFileSync(path.join(folder, 'policy.onnx'), policyBytes ?? fs.readFileSync(path.join(MODELS, 'policy.onnx')));
  const card = JSON.parse(fs.readFileSync(path.join(MODELS, 'policy.card.json'), 'utf8')) as Record<string, unknown>;
  edit?.(card);
  fs.writeFileSync(path.join(folder, 'policy.card.json'), JSON.stringify(card));
  return folder;
}

/** τ_N, τ_H of the shipped evidence model's card. */
function modelCardThresholds(): { tauN: number; tauH: number } {
  const { calibration } = JSON.parse(fs.readFileSync(path.join(MODELS, 'default.card.json'), 'utf8')) as { calibration: { tauN: number; tauH: number } };
  return { tauN: calibration.tauN, tauH: calibration.tauH };
}

async function episodesOf(setup: Awaited<ReturnType<typeof loadEngine>>, methods: string[]): Promise<Map<string, EpisodeRecord[]>> {
  const out = new Map<string, EpisodeRecord[]>(methods.map((m) => [m, []]));
  // The store, answering with its first 12 queries only.
  const subset = Object.assign(Object.create(store) as Store, { queries: () => store.queries().slice(0, 12) });
  await evaluate(subset, {
    bundle: 'sim',
    methods: resolveMethods(methods),
    context: setup,
    onResult: (r: QueryResult) => {
      if (r.episode && r.variant === 'base') out.get(r.method)?.push(r.episode);
    },
  });
  return out;
}

describe('the learned policy in the engine', () => {
  it('loadEngine() runs the shipped policy by default, with the τ its cards say', async () => {
    const setup = await loadEngine({});
    expect(setup.policy.name).toBe('learned:policy');
    expect(setup.policy.heuristic).toBe(false);
    const card = readPolicyCard(path.join(MODELS, 'policy.card.json'));
    expect(card?.evidenceModel.file).toBe('default.onnx');
    const expected = card?.thresholds ?? modelCardThresholds();
    expect([setup.config.tauN, setup.config.tauH]).toEqual([expected.tauN, expected.tauH]);
    await (setup.policy as OnnxRecoveryPolicy).close();
  });

  it("records the learned policy's probabilities in the episode (not the heuristic's), acting greedily on them", async () => {
    const setup = await loadEngine({});
    const learned = setup.policy as OnnxRecoveryPolicy;
    const s = spy(learned);
    let differs = 0;
    let steps = 0;
    for (const q of store.queries().slice(0, 25)) {
      s.asked.length = 0;
      const e = await runEpisode({ source: store, model: setup.model, config: setup.config, policy: s }, q, { method: 'cama' });
      const offeredSteps = e.steps.filter((x) => x.offered.length > 0);
      expect(offeredSteps).toHaveLength(s.asked.length);
      for (const [i, step] of offeredSteps.entries()) {
        const asked = s.asked[i] as (typeof s.asked)[number];
        const { logits } = await learned.run(stepFeatures(asked.offered, asked.state));
        const pi = softmax(logits);
        expect(step.offered.map((o) => o.probability)).toEqual(Array.from(pi));
        const best = pi.indexOf(Math.max(...pi));
        expect(step.chosen?.label).toBe(step.offered[best]?.label);
        const heuristic = await heuristicPolicy.probabilities(asked.offered, asked.state);
        if (heuristic.some((p, k) => Math.abs(p - (pi[k] as number)) > 1e-6)) differs++;
        steps++;
      }
    }
    expect(steps).toBeGreaterThan(10);
    expect(differs).toBeGreaterThan(steps / 2);
    await learned.close();
  });

  it('eval: `cama` runs the learned policy and `cama_wo_policy` the heuristic one, with the same evidence model', async () => {
    const setup = await loadEngine({});
    const episodes = await episodesOf(setup, ['cama', 'cama_wo_policy']);
    const cama = episodes.get('cama') as EpisodeRecord[];
    const wo = episodes.get('cama_wo_policy') as EpisodeRecord[];
    expect(cama.length).toBe(12);
    for (const e of cama) expect([e.config.policy, e.config.policyHeuristic, e.config.model]).toEqual(['learned:policy', false, 'neural:default']);
    for (const e of wo) expect([e.config.policy, e.config.policyHeuristic, e.config.model]).toEqual([HEURISTIC_POLICY, true, 'neural:default']);
    await (setup.policy as OnnxRecoveryPolicy).close();
  });

  it("applies the policy card's τ_N / τ_H only with its own evidence model, and `cama_wo_policy` keeps the evidence model's", async () => {
    const folder = modelsWith('recalibrated', (card) => {
      card.thresholds = { tauN: 2, tauH: 0.5 };
    });
    const setup = await loadEngine({}, { modelsDir: folder });
    const own = modelCardThresholds();
    expect([setup.config.tauN, setup.config.tauH]).toEqual([2, 0.5]);
    expect(setup.heuristicThresholds).toEqual(own);
    // The normal course, not a warning: said in the setup line the CLI prints, never among the notes.
    expect(setup.notes?.join(' ') ?? '').not.toMatch(/recalibrated/);
    expect(describeSetup(setup)).toMatch(
      /policy: learned:policy; τ_p = [\d.]+, τ_N = 2, τ_H = 0\.5 \(τ_N, τ_H recalibrated for the learned policy \(.*policy\.card\.json\); τ_p from the model card \(.*default\.card\.json\)\)$/,
    );
    const episodes = await episodesOf(setup, ['cama', 'cama_wo_policy']);
    for (const e of episodes.get('cama') ?? []) expect([e.config.tauN, e.config.tauH]).toEqual([2, 0.5]);
    for (const e of episodes.get('cama_wo_policy') ?? []) expect([e.config.tauN, e.config.tauH]).toEqual([own.tauN, own.tauH]);
    // An explicit override wins; another evidence model keeps its own τ's and says why.
    expect((await loadEngine({ tauN: 4 }, { modelsDir: folder })).config.tauN).toBe(4);
    const heuristic = await loadEngine({}, { modelsDir: folder, model: 'heuristic' });
    expect(heuristic.policy.name).toBe('learned:policy');
    expect(heuristic.config.tauN).toBe(1);
    expect(heuristic.notes?.join(' ')).toMatch(/recalibrated for the evidence model default\.onnx, not this one/);
  });

  it('falls back to the heuristic policy, and says so, without a policy file or when asked', async () => {
    const folder = path.join(dir, 'no-policy');
    fs.mkdirSync(folder, { recursive: true });
    for (const f of ['default.onnx', 'default.card.json']) fs.copyFileSync(path.join(MODELS, f), path.join(folder, f));
    const setup = await loadEngine({}, { modelsDir: folder });
    expect(setup.model.name).toBe('neural:default');
    expect(setup.policy).toBe(heuristicPolicy);
    expect(setup.notes?.join(' ')).toMatch(/no trained policy at .*policy\.onnx: using the HEURISTIC recovery policy/);
    expect((await loadEngine({}, { policy: 'heuristic' })).policy).toBe(heuristicPolicy);
  });

  it('refuses a policy of another contract naming both versions; loadEngine falls back and says why', async () => {
    const m = onnxProto.onnx.ModelProto.decode(fs.readFileSync(path.join(MODELS, 'policy.onnx')));
    for (const p of m.metadataProps) if (p.key === 'cama.contract_version') p.value = 'cama-policy/0';
    const bytes = onnxProto.onnx.ModelProto.encode(m).finish();
    await expect(OnnxRecoveryPolicy.fromBytes(bytes, 'old-policy.onnx')).rejects.toThrow(/old-policy\.onnx.*cama-policy\/0.*cama-policy\/1/);
    const folder = modelsWith('old-contract', undefined, bytes);
    const file = path.join(folder, 'policy.onnx');
    await expect(loadEngine({}, { modelsDir: folder, policy: file })).rejects.toThrow(/cama-policy\/0.*cama-policy\/1/);
    const setup = await loadEngine({}, { modelsDir: folder });
    expect(setup.policy).toBe(heuristicPolicy);
    expect(setup.notes?.join(' ')).toMatch(/cama-policy\/0.*HEURISTIC recovery policy/);
    // An evidence model is not a policy, nor a policy an evidence model.
    await expect(OnnxRecoveryPolicy.load(path.join(MODELS, 'default.onnx'))).rejects.toThrow(/cama-evidence\/2.*cama-policy\/1/);
    await expect(OnnxEvidenceModel.load(path.join(MODELS, 'policy.onnx'))).rejects.toThrow(/cama-policy\/1.*cama-evidence\/2/);
  });
});
