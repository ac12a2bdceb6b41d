// Shared by the ensemble experiments (not part of the suite or the app): an evidence model whose every
// graph output (affinity D, credibility, neural support, reliability head) is the mean over several trained
// models' outputs on the same features, grouped into slots with the first model's options.
import type { EvidenceModel, EvidenceOutput, SliceInput } from '../../../electron/engine/evidence/model';
import { featurize, SUPPORT_DIM } from '../../../electron/model/featurizer';
import { type GraphOutputs, mixSupport, OnnxEvidenceModel, reliabilityHeadOf } from '../../../electron/model/onnx-model';
import { TEXT_DIM } from '../../../electron/model/text-hash';
import { slotAssignment, stancesOf } from '../../../shared/math/assignment';
import { matrix } from '../../../shared/math/matrix';

/** The mean of `first` and `others` as one evidence model (the first model itself when there are no others). */
export function ensembleOf(first: OnnxEvidenceModel, others: readonly OnnxEvidenceModel[]): EvidenceModel {
  const members = [first, ...others];
  if (members.some((m) => m.info.featurizer !== first.info.featurizer)) throw new Error('the models must share a featurizer version');
  if (others.length === 0) return first;
  async function infer(input: SliceInput): Promise<EvidenceOutput> {
    const K = input.memories.length;
    if (K === 0) return { assignment: matrix(0, input.slots) };
    const f = featurize(input, first.info.featurizer);
    const fed = f.L > 0 ? f : { ...f, L: 1, hypotheses: new Float32Array(TEXT_DIM), support: new Float32Array(K * SUPPORT_DIM) };
    const outs = await Promise.all(members.map((m) => m.run(fed)));
    const mean = (k: keyof GraphOutputs): Float32Array => {
      const r = new Float32Array(outs[0]?.[k].length ?? 0);
      for (const o of outs) for (let i = 0; i < r.length; i++) r[i] = (r[i] as number) + (o[k][i] as number) / outs.length;
      return r;
    };
    const stance = stancesOf(input.claimSupport.support.data, K, f.L);
    const { assignment } = slotAssignment(mean('affinity'), K, f.evidence, { ...first.slotOptions, stance });
    return { assignment, support: mixSupport(input, mean('support')), reliabilityHead: reliabilityHeadOf(mean('reliabilityHead')), credibility: Float64Array.from(mean('credibility')) };
  }
  return { name: `ensemble of ${members.length}`, heuristic: false, infer };
}
