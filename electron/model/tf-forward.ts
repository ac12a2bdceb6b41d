// The model spec interpreted with tfjs: the trainer's forward pass (differentiable through tfjs autodiff)
// and the reference side of the ONNX parity test. Every op here has its ONNX twin in onnx-export.ts.

import * as tf from '@tensorflow/tfjs-core';
import type { SliceFeatures } from './featurizer';
import type { ModelSpec, OpSpec } from './spec';
import { TEXT_DIM } from './text-hash';
import type { Weights } from './weights';
import { featureLayout, SUPPORT_DIM } from './featurizer';

export type TensorMap = Record<string, tf.Tensor>;

function softmaxAxis(x: tf.Tensor, axis: number): tf.Tensor {
  const rank = x.rank;
  const a = axis < 0 ? axis + rank : axis;
  if (a === rank - 1) return tf.softmax(x);
  const perm = [...Array(rank).keys()];
  perm[a] = rank - 1;
  perm[rank - 1] = a;
  return tf.transpose(tf.softmax(tf.transpose(x, perm)), perm);
}

function apply(op: OpSpec, env: Map<string, tf.Tensor>): tf.Tensor {
  const arg = (i: number): tf.Tensor => {
    const name = op.inputs[i] as string;
    const t = env.get(name);
    if (!t) throw new Error(`forward: ${op.op} -> ${op.output} reads ${name}, which is not defined yet`);
    return t;
  };
  switch (op.op) {
    case 'MatMul':
      return tf.matMul(arg(0) as tf.Tensor2D, arg(1) as tf.Tensor2D);
    case 'Add':
      return tf.add(arg(0), arg(1));
    case 'Sub':
      return tf.sub(arg(0), arg(1));
    case 'Mul':
      return tf.mul(arg(0), arg(1));
    case 'Div':
      return tf.div(arg(0), arg(1));
    case 'Tanh':
      return tf.tanh(arg(0));
    case 'Sigmoid':
      return tf.sigmoid(arg(0));
    case 'Log':
      return tf.log(arg(0));
    case 'Relu':
      return tf.relu(arg(0));
    case 'Identity':
      return tf.clone(arg(0));
    case 'EyeLike': {
      const [rows, cols] = arg(0).shape as [number, number];
      return tf.eye(rows, cols);
    }
    case 'Softmax':
      return softmaxAxis(arg(0), op.axis);
    case 'Transpose':
      return tf.transpose(arg(0), op.perm);
    case 'ReduceMax':
      return tf.max(arg(0), op.axes, op.keepdims);
    case 'ReduceSum':
      return tf.sum(arg(0), op.axes, op.keepdims);
    case 'Concat':
      return tf.concat(op.inputs.map((_, i) => arg(i)), op.axis);
  }
}

/**
 * Runs the spec's ops. `params` holds every parameter (tf.Variable while training), `inputs` every graph
 * input. Returns the spec's outputs and the named intermediates in `also` (call inside tf.tidy;
 * intermediates are left to it).
 */
export function forward(spec: ModelSpec, params: TensorMap, inputs: TensorMap, also: readonly string[] = []): TensorMap {
  const env = new Map<string, tf.Tensor>();
  for (const i of spec.inputs) {
    const t = inputs[i.name];
    if (!t) throw new Error(`forward: missing input ${i.name}`);
    env.set(i.name, t);
  }
  for (const p of spec.params) {
    const t = params[p.name];
    if (!t) throw new Error(`forward: missing parameter ${p.name}`);
    env.set(p.name, t);
  }
  for (const c of spec.constants) env.set(c.name, tf.scalar(c.value));
  for (const op of spec.ops) env.set(op.output, apply(op, env));
  const out: TensorMap = {};
  for (const name of [...spec.outputs.map((o) => o.name), ...also]) {
    const t = env.get(name);
    if (!t) throw new Error(`forward: the spec never computes ${name}`);
    out[name] = t;
  }
  return out;
}

/** A set of weights as the parameter tensors `forward` takes (the caller disposes them). */
export function paramTensors(spec: ModelSpec, weights: Weights): TensorMap {
  return Object.fromEntries(spec.params.map((p) => [p.name, tf.tensor(weights.get(p.name) as Float32Array, p.shape)]));
}

/** A featurized slice as the graph's input tensors (float32). The hypothesis side must have L ≥ 1. */
export function inputTensors(f: SliceFeatures, mu: number): TensorMap {
  const { memoryDim, pairDim } = featureLayout(f.version);
  return {
    memory_features: tf.tensor2d(f.memory, [f.K, memoryDim]),
    query_features: tf.tensor2d(f.query, [1, TEXT_DIM]),
    pair_features: tf.tensor3d(f.pairs, [f.K, f.K, pairDim]),
    provenance_prior: tf.tensor2d(f.provenance, [f.K, f.K]),
    hypothesis_features: tf.tensor2d(f.hypotheses, [f.L, TEXT_DIM]),
    support_features: tf.tensor3d(f.support, [f.K, f.L, SUPPORT_DIM]),
    evidence: tf.tensor2d(f.evidence, [f.K, 1]),
    mu: tf.scalar(mu),
  };
}
