// The model spec written as an ONNX graph with onnx-proto (protobufjs classes generated from onnx.proto):
// one ONNX node per spec op, parameters and constants as initializers, dynamic K and L dimensions,
// opset 17. The contract (versions, μ, hyper-parameters) travels in the model's metadata_props.

import onnxProto from 'onnx-proto';
import { CONTRACT_VERSION, FEATURIZER_VERSION, type Hyper, type ModelSpec, type OpSpec } from './spec';
import type { FeaturizerVersion } from './featurizer';
import { checkWeights, type Weights } from './weights';

const { onnx } = onnxProto;
const DataType = onnx.TensorProto.DataType;
const AttrType = onnx.AttributeProto.AttributeType;

export const OPSET = 17;
export const IR_VERSION = 8;

/** metadata_props keys. */
export const META = {
  contract: 'cama.contract_version',
  featurizer: 'cama.featurizer_version',
  name: 'cama.model_name',
  mu: 'cama.mu',
  slots: 'cama.slots',
  hyper: 'cama.hyper',
} as const;

export interface ExportInfo {
  /** The model's name (`neural:<name>` in every output). */
  name: string;
  /** μ the model was trained with. */
  mu: number;
  hyper: Hyper;
  /** The featurizer version the model is trained against (default FEATURIZER_VERSION). */
  featurizer?: FeaturizerVersion;
  /** Extra metadata (e.g. the training seed). */
  extra?: Record<string, string>;
}

function float32Bytes(values: Float32Array): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] as number, true);
  return out;
}

function valueInfo(name: string, dims: ReadonlyArray<number | string>, docString: string): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    docString,
    type: { tensorType: { elemType: DataType.FLOAT, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
  };
}

const intAttr = (name: string, i: number): onnxProto.onnx.IAttributeProto => ({ name, type: AttrType.INT, i });
const intsAttr = (name: string, ints: number[]): onnxProto.onnx.IAttributeProto => ({ name, type: AttrType.INTS, ints });

function nodes(op: OpSpec, axesInit: onnxProto.onnx.ITensorProto[]): onnxProto.onnx.INodeProto[] {
  const base = { name: op.output, input: [...op.inputs], output: [op.output] };
  switch (op.op) {
    case 'Softmax':
      return [{ ...base, opType: 'Softmax', attribute: [intAttr('axis', op.axis)] }];
    case 'Transpose':
      return [{ ...base, opType: 'Transpose', attribute: [intsAttr('perm', op.perm)] }];
    case 'Concat':
      return [{ ...base, opType: 'Concat', attribute: [intAttr('axis', op.axis)] }];
    case 'ReduceMax': // opset 13-17: axes is an attribute
      return [{ ...base, opType: 'ReduceMax', attribute: [intsAttr('axes', op.axes), intAttr('keepdims', op.keepdims ? 1 : 0)] }];
    case 'ReduceSum': {
      // opset ≥ 13: axes is an int64 input
      const axes = `${op.output}__axes`;
      axesInit.push({ name: axes, dataType: DataType.INT64, dims: [op.axes.length], int64Data: op.axes });
      return [{ ...base, input: [...op.inputs, axes], opType: 'ReduceSum', attribute: [intAttr('keepdims', op.keepdims ? 1 : 0)] }];
    }
    default:
      return [{ ...base, opType: op.op }];
  }
}

/** The ONNX model bytes for `spec` with `weights`. Deterministic: the same arguments give the same bytes. */
export function exportOnnx(spec: ModelSpec, weights: Weights, info: ExportInfo): Uint8Array {
  checkWeights(spec, weights);
  const axesInit: onnxProto.onnx.ITensorProto[] = [];
  const node = spec.ops.flatMap((op) => nodes(op, axesInit));
  const initializer: onnxProto.onnx.ITensorProto[] = [
    ...spec.params.map((p) => ({ name: p.name, dataType: DataType.FLOAT, dims: p.shape, rawData: float32Bytes(weights.get(p.name) as Float32Array) })),
    ...spec.constants.map((c) => ({ name: c.name, dataType: DataType.FLOAT, dims: [], rawData: float32Bytes(Float32Array.of(c.value)) })),
    ...axesInit,
  ];
  const graph = onnx.GraphProto.create({
    name: 'cama_evidence',
    docString: 'CAMA neural evidence model: Z (Eq. 1-2), candidate-conditioned support, and the reliability head of Eq. 6. See models/CONTRACT.md.',
    node,
    initializer,
    input: spec.inputs.map((i) => valueInfo(i.name, i.dims, i.meaning)),
    output: spec.outputs.map((o) => valueInfo(o.name, o.dims, o.meaning)),
  });
  const metadata: Record<string, string> = {
    [META.contract]: CONTRACT_VERSION,
    [META.featurizer]: info.featurizer ?? FEATURIZER_VERSION,
    [META.name]: info.name,
    [META.mu]: String(info.mu),
    [META.slots]: String(info.hyper.slots),
    [META.hyper]: JSON.stringify(info.hyper),
    ...info.extra,
  };
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'arbitration-workbench',
    producerVersion: CONTRACT_VERSION,
    domain: 'org.arbitration.workbench',
    modelVersion: 1,
    docString: `CAMA evidence model "${info.name}"`,
    graph,
    metadataProps: Object.entries(metadata)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => ({ key, value })),
  });
  return onnx.ModelProto.encode(model).finish();
}

/** The metadata_props of an ONNX model file's bytes. */
export function readMetadata(bytes: Uint8Array): Record<string, string> {
  const model = onnx.ModelProto.decode(bytes);
  return Object.fromEntries(model.metadataProps.map((p) => [p.key, p.value]));
}

/** The float initializers of an ONNX model (the trained parameters and constants), by name. */
export function readInitializers(bytes: Uint8Array): Weights {
  const model = onnx.ModelProto.decode(bytes);
  const out: Weights = new Map();
  for (const t of model.graph?.initializer ?? []) {
    if (t.dataType !== DataType.FLOAT || !t.name) continue;
    if (t.rawData && t.rawData.length > 0) {
      const view = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
      const values = new Float32Array(t.rawData.byteLength / 4);
      for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true);
      out.set(t.name, values);
    } else {
      out.set(t.name, Float32Array.from(t.floatData ?? []));
    }
  }
  return out;
}
