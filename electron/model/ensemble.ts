// Several trained evidence models as one: an ONNX graph that runs each member on the same inputs and
// outputs, for every graph output (affinity D, support, credibility, reliability head), the mean over the
// members (ONNX Mean). The engine loads it like any model: one file, one session, the same contract. Slots
// are grouped from the mean D with the options the members share.
//
// Why: models of one recipe differ by their seed more than recipes differ (README, "Paired, question for
// question, on validation"), and the mean of three level models was measured more accurate than the best
// of them (test/bench/experiments/ensemble-protocol.ts). Averaging outputs is what that measured.

import onnxProto from 'onnx-proto';
import { checkContract } from './contract';
import { META, readMetadata } from './onnx-export';
import { DEFAULT_HYPER, type Hyper } from './spec';

const { onnx } = onnxProto;

/** metadata_props key listing an ensemble's members (JSON: [{ name, label }]). */
export const ENSEMBLE_META = 'cama.ensemble';

export interface EnsembleMember {
  /** The member's ONNX bytes. */
  bytes: Uint8Array;
  /** How errors and the metadata name it (its file). */
  label: string;
}

/** Refuses members that disagree on what the engine reads from their metadata, naming the one that differs. */
function checkAgreement(members: readonly EnsembleMember[]): void {
  const infos = members.map((m) => checkContract(readMetadata(m.bytes), m.label));
  const first = infos[0];
  if (!first) throw new Error('ensemble: no member');
  const slotOptions = (h: Hyper | null) => ({
    linkThreshold: h?.linkThreshold ?? DEFAULT_HYPER.linkThreshold,
    slotTemperature: h?.slotTemperature ?? DEFAULT_HYPER.slotTemperature,
  });
  infos.forEach((info, k) => {
    const label = (members[k] as EnsembleMember).label;
    const differ = (what: string, a: unknown, b: unknown) => {
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        throw new Error(`ensemble: ${label} has ${what} ${JSON.stringify(b)} where ${(members[0] as EnsembleMember).label} has ${JSON.stringify(a)}; members must agree on it`);
      }
    };
    differ('featurizer', first.featurizer, info.featurizer);
    differ('μ', first.mu, info.mu);
    differ('slots', first.slots, info.slots);
    differ('slot grouping (link threshold, slot temperature)', slotOptions(first.hyper), slotOptions(info.hyper));
  });
}

/**
 * The members' graphs side by side, every name but the shared inputs prefixed with the member's index,
 * and one Mean node per output. The metadata is the first member's, with `name` and the member list.
 */
export function composeEnsemble(members: readonly EnsembleMember[], name: string): Uint8Array {
  if (members.length < 2) throw new Error(`ensemble: ${members.length} member(s); an ensemble needs at least two models`);
  checkAgreement(members);
  const models = members.map((m) => onnx.ModelProto.decode(m.bytes));
  const first = models[0] as onnxProto.onnx.ModelProto;
  const graph0 = first.graph as onnxProto.onnx.GraphProto;
  const inputNames = graph0.input.map((i) => i.name ?? '');
  const outputNames = graph0.output.map((o) => o.name ?? '');
  const shared = new Set(inputNames);

  const nodes: onnxProto.onnx.INodeProto[] = [];
  const initializers: onnxProto.onnx.ITensorProto[] = [];
  models.forEach((model, k) => {
    const graph = model.graph as onnxProto.onnx.GraphProto;
    const label = (members[k] as EnsembleMember).label;
    const ins = graph.input.map((i) => i.name ?? '');
    const outs = graph.output.map((o) => o.name ?? '');
    if (JSON.stringify([...ins].sort()) !== JSON.stringify([...inputNames].sort()) || JSON.stringify(outs) !== JSON.stringify(outputNames)) {
      throw new Error(`ensemble: ${label} has inputs ${ins.join(', ')} and outputs ${outs.join(', ')}, unlike the first member's`);
    }
    const rename = (n: string | null | undefined): string => (!n || shared.has(n) ? (n ?? '') : `m${k}/${n}`);
    for (const t of graph.initializer) initializers.push({ ...t, name: rename(t.name) });
    for (const node of graph.node) {
      const output = node.output ?? [];
      nodes.push({ ...node, name: rename(node.name || output[0]), input: (node.input ?? []).map(rename), output: output.map(rename) });
    }
  });
  for (const out of outputNames) {
    nodes.push({ opType: 'Mean', name: `mean/${out}`, input: models.map((_, k) => `m${k}/${out}`), output: [out] });
  }
  const metadata: Record<string, string> = Object.fromEntries(first.metadataProps.map((p) => [p.key ?? '', p.value ?? '']));
  metadata[META.name] = name;
  metadata[ENSEMBLE_META] = JSON.stringify(members.map((m) => ({ label: m.label, name: readMetadata(m.bytes)[META.name] ?? 'unnamed' })));
  const composed: onnxProto.onnx.IModelProto = {
    irVersion: first.irVersion,
    opsetImport: first.opsetImport,
    producerName: 'cama-workbench ensemble',
    graph: { name: `ensemble of ${members.length}`, node: nodes, initializer: initializers, input: graph0.input, output: graph0.output },
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value })),
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(composed)).finish();
}
