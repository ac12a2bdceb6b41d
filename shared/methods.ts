// Method names, model names and input groups that the main process and the renderer both need to know.

/** The evaluation-only diagnostics (electron/eval/methods.ts): they read ground-truth factors, so no one could run them. */
export const ORACLE_FACTORS = 'oracle_factors';
export const ORACLE_SLOTS = 'oracle_slots';
export const DIAGNOSTIC_METHOD_NAMES: readonly string[] = [ORACLE_FACTORS, ORACLE_SLOTS];

/** The prefix of a trained evidence model's name as the engine runs it and episodes record it (`neural:<name>`). */
export const NEURAL_PREFIX = 'neural:';

/**
 * The trained evidence model's input groups that an inference-time ablation zeroes (`eval --ablate`, the
 * inspector's what-if); electron/model/featurizer.ts says which columns each holds.
 */
export const INPUT_GROUPS = ['kind', 'text', 'stance', 'provenance', 'metadata'] as const;
export type InputGroup = (typeof INPUT_GROUPS)[number];

export function isInputGroup(v: string): v is InputGroup {
  return (INPUT_GROUPS as readonly string[]).includes(v);
}

/** The name a trained model runs under and its episodes record: `neural:<name>`, and ` w/o a+b` with input groups zeroed. */
export function neuralModelName(name: string, zeroed: readonly InputGroup[] = []): string {
  return `${NEURAL_PREFIX}${name}${zeroed.length > 0 ? ` w/o ${zeroed.join('+')}` : ''}`;
}

/** A recorded provider's trained model and the input groups it ran with zeroed; null for one that is no trained model (the heuristic). */
export function parseNeuralModelName(provider: string): { name: string; zeroed: InputGroup[] } | null {
  if (!provider.startsWith(NEURAL_PREFIX)) return null;
  const rest = provider.slice(NEURAL_PREFIX.length);
  const suffix = / w\/o ([a-z+]+)$/.exec(rest);
  const groups = suffix?.[1]?.split('+') ?? [];
  if (suffix && groups.every(isInputGroup)) return { name: rest.slice(0, suffix.index), zeroed: groups };
  return { name: rest, zeroed: [] };
}

/** What each input group holds, in words a researcher reads beside the switch that zeroes it. */
export const INPUT_GROUP_MEANING: Readonly<Record<InputGroup, string>> = {
  kind: "the memory's kind label (observation, relay, summary, note, …)",
  text: 'the words of the memories, the question and the hypotheses, and every feature read from them',
  stance: 'what the claims and the stated values say: which answer each memory backs',
  provenance: 'the recorded derivation edges between the memories',
  metadata: 'what memories report of themselves (observed, source type, reliability), their time and their agents',
};
