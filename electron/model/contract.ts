// The model contract the engine speaks (models/CONTRACT.md): a model file names the contract and the
// featurizer version it was trained against in its metadata, and the engine refuses any other contract or
// a featurizer version it cannot compute (FEATURIZER_VERSIONS), naming both versions and the file.

import { META } from './onnx-export';
import { type FeaturizerVersion, featurizerVersionsText, isFeaturizerVersion } from './featurizer';
import { CONTRACT_VERSION, FEATURIZER_VERSION, type Hyper } from './spec';

export class ModelContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelContractError';
  }
}

export interface ModelInfo {
  name: string;
  contract: string;
  /** The featurizer version the model was trained against; the engine featurizes its slices with it. */
  featurizer: FeaturizerVersion;
  /** μ the model was trained with (fed to its `mu` input). */
  mu: number;
  slots: number;
  hyper: Hyper | null;
  metadata: Record<string, string>;
}

/** Checks a model's metadata against this engine's contract; throws a ModelContractError naming both sides. */
export function checkContract(metadata: Record<string, string>, file: string): ModelInfo {
  const contract = metadata[META.contract];
  const featurizer = metadata[META.featurizer];
  if (contract === undefined || featurizer === undefined) {
    throw new ModelContractError(
      `${file}: not a CAMA evidence model (its metadata names no ${META.contract} / ${META.featurizer}); ` +
        `this engine speaks contract ${CONTRACT_VERSION} with featurizer ${FEATURIZER_VERSION}`,
    );
  }
  if (contract !== CONTRACT_VERSION || !isFeaturizerVersion(featurizer)) {
    throw new ModelContractError(
      `${file}: the model was built for contract ${contract} with featurizer ${featurizer}, but this engine speaks ` +
        `contract ${CONTRACT_VERSION} with featurizer ${featurizerVersionsText()}; retrain it (npm run cama -- train) or use an engine of its version`,
    );
  }
  const mu = Number(metadata[META.mu]);
  const slots = Number(metadata[META.slots]);
  if (!Number.isFinite(mu) || mu < 0) throw new ModelContractError(`${file}: metadata ${META.mu} is ${JSON.stringify(metadata[META.mu])}, not a number ≥ 0`);
  if (!Number.isInteger(slots) || slots < 1) throw new ModelContractError(`${file}: metadata ${META.slots} is ${JSON.stringify(metadata[META.slots])}, not a slot count`);
  let hyper: Hyper | null = null;
  try {
    hyper = metadata[META.hyper] ? (JSON.parse(metadata[META.hyper] as string) as Hyper) : null;
  } catch {
    hyper = null;
  }
  return { name: metadata[META.name] ?? 'unnamed', contract, featurizer, mu, slots, hyper, metadata };
}
