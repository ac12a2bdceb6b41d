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

/** The prefix of an ablation that zeroes its groups for the credibility c_i alone (`credibility:text`); the grouping and the support still read them. */
export const CREDIBILITY_PREFIX = 'credibility:';

/**
 * The name a trained model runs under and its episodes record: `neural:<name>`, ` w/o a+b` with input groups
 * zeroed, and ` w/o credibility:c+d` with groups zeroed for its credibility alone.
 */
export function neuralModelName(name: string, zeroed: readonly InputGroup[] = [], credibilityZeroed: readonly InputGroup[] = []): string {
  const all = zeroed.length > 0 ? ` w/o ${zeroed.join('+')}` : '';
  const credibility = credibilityZeroed.length > 0 ? ` w/o ${CREDIBILITY_PREFIX}${credibilityZeroed.join('+')}` : '';
  return `${NEURAL_PREFIX}${name}${all}${credibility}`;
}

/**
 * A recorded provider's trained model and the input groups it ran with zeroed (everywhere, and for its credibility
 * alone); null for one that is no trained model (the heuristic).
 */
export function parseNeuralModelName(provider: string): { name: string; zeroed: InputGroup[]; credibilityZeroed: InputGroup[] } | null {
  if (!provider.startsWith(NEURAL_PREFIX)) return null;
  let rest = provider.slice(NEURAL_PREFIX.length);
  const suffix = (credibility: boolean): InputGroup[] => {
    const m = new RegExp(` w/o ${credibility ? CREDIBILITY_PREFIX : ''}([a-z+]+)$`).exec(rest);
    const groups = m?.[1]?.split('+') ?? [];
    if (!m || !groups.every(isInputGroup)) return [];
    rest = rest.slice(0, m.index);
    return groups;
  };
  const credibilityZeroed = suffix(true);
  const zeroed = suffix(false);
  return { name: rest, zeroed, credibilityZeroed };
}

/**
 * An ablation as `eval --ablate` names it: input groups joined by + (zeroed in every input), or the same after
 * `credibility:` (zeroed only where the model computes its credibility; the affinity and the support read them).
 * Null for a spec that names anything else.
 */
export function parseAblation(spec: string): { groups: InputGroup[]; part: 'all' | 'credibility' } | null {
  const credibility = spec.startsWith(CREDIBILITY_PREFIX);
  const groups = ablationParts(spec);
  if (!groups.every(isInputGroup)) return null;
  return { groups, part: credibility ? 'credibility' : 'all' };
}

/** The group names an ablation spec lists, valid or not. */
const ablationParts = (spec: string): string[] => (spec.startsWith(CREDIBILITY_PREFIX) ? spec.slice(CREDIBILITY_PREFIX.length) : spec).split('+');

/** Why `spec` is no ablation (the first name that is no input group, and what is), or null for a valid one. */
export function ablationProblem(spec: string): string | null {
  const unknown = ablationParts(spec).find((part) => !isInputGroup(part));
  if (unknown === undefined) return null;
  return `unknown input group "${unknown}"; known: ${INPUT_GROUPS.join(', ')} (join groups with + to zero them together; ${CREDIBILITY_PREFIX}g zeroes g for the credibility alone)`;
}

/** What each input group holds, in words a researcher reads beside the switch that zeroes it. */
export const INPUT_GROUP_MEANING: Readonly<Record<InputGroup, string>> = {
  kind: "the memory's kind label (observation, relay, summary, note, …)",
  text: 'the words of the memories, the question and the hypotheses, and every feature read from them',
  stance: 'what the claims and the stated values say: which answer each memory backs',
  provenance: 'the recorded derivation edges between the memories',
  metadata: 'what memories report of themselves (observed, source type, reliability), their time and their agents',
};
