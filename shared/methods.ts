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

/**
 * The parts of the trained model's output an ablation can be confined to (`eval --ablate <part>:<groups>`):
 * the groups are zeroed on a second run of the graph, and only that part is read from it, while the rest of the
 * model still reads them. `grouping` is the pairwise affinity the slot assignment Z is formed from,
 * `credibility` each memory's credibility c_i: the two outputs of the graph that depend on a slice's inputs
 * and that the engine arbitrates with (the reliability head is a learned constant; the graph's support
 * scores are read only with the neural text support). With the whole-model ablation they say which part of
 * the model a group's value goes through.
 */
export const MODEL_PARTS = ['grouping', 'credibility'] as const;
export type ModelPart = (typeof MODEL_PARTS)[number];

/** What each part is, in words a researcher reads beside its ablation. */
export const MODEL_PART_MEANING: Readonly<Record<ModelPart, string>> = {
  grouping: 'the pairwise affinity the slot assignment Z is formed from',
  credibility: "the credibility c_i: how much each memory's statement counts",
};

export function isModelPart(v: string): v is ModelPart {
  return (MODEL_PARTS as readonly string[]).includes(v);
}

/** Input groups zeroed for one part of the model alone, by part (a part absent or empty: none). */
export type PartAblations = Readonly<Partial<Record<ModelPart, readonly InputGroup[]>>>;

/**
 * The name a trained model runs under and its episodes record: `neural:<name>`, ` w/o a+b` with input groups
 * zeroed, and ` w/o <part>:c+d` (in MODEL_PARTS order) with groups zeroed for that part alone.
 */
export function neuralModelName(name: string, zeroed: readonly InputGroup[] = [], parts: PartAblations = {}): string {
  const all = zeroed.length > 0 ? ` w/o ${zeroed.join('+')}` : '';
  const byPart = MODEL_PARTS.map((part) => {
    const groups = parts[part] ?? [];
    return groups.length > 0 ? ` w/o ${part}:${groups.join('+')}` : '';
  }).join('');
  return `${NEURAL_PREFIX}${name}${all}${byPart}`;
}

/**
 * A recorded provider's trained model and the input groups it ran with zeroed (everywhere, and for one part
 * alone, every part listed); null for one that is no trained model (the heuristic).
 */
export function parseNeuralModelName(provider: string): { name: string; zeroed: InputGroup[]; parts: Record<ModelPart, InputGroup[]> } | null {
  if (!provider.startsWith(NEURAL_PREFIX)) return null;
  let rest = provider.slice(NEURAL_PREFIX.length);
  const suffix = (part: ModelPart | null): InputGroup[] => {
    const m = new RegExp(` w/o ${part ? `${part}:` : ''}([a-z+]+)$`).exec(rest);
    const groups = m?.[1]?.split('+') ?? [];
    if (!m || !groups.every(isInputGroup)) return [];
    rest = rest.slice(0, m.index);
    return groups;
  };
  // From the end: the parts in reverse order, then the groups zeroed everywhere.
  const parts: Record<ModelPart, InputGroup[]> = { grouping: [], credibility: [] };
  for (const part of [...MODEL_PARTS].reverse()) parts[part] = suffix(part);
  const zeroed = suffix(null);
  return { name: rest, zeroed, parts };
}

/**
 * An ablation as `eval --ablate` names it: input groups joined by + (zeroed in every input), or the same after
 * `<part>:` (zeroed only on the run the model's grouping or credibility is read from; the rest of the model
 * reads them). Null for a spec that names anything else.
 */
export function parseAblation(spec: string): { groups: InputGroup[]; part: 'all' | ModelPart } | null {
  const { part, groups } = ablationParts(spec);
  if (part === undefined || !groups.every(isInputGroup)) return null;
  return { groups, part };
}

/** The part an ablation spec names (undefined for an unknown `x:`) and the group names it lists, valid or not. */
function ablationParts(spec: string): { part: 'all' | ModelPart | undefined; groups: string[] } {
  const colon = spec.indexOf(':');
  if (colon < 0) return { part: 'all', groups: spec.split('+') };
  const part = spec.slice(0, colon);
  return { part: isModelPart(part) ? part : undefined, groups: spec.slice(colon + 1).split('+') };
}

/** Why `spec` is no ablation (an unknown part, or the first name that is no input group, and what is), or null for a valid one. */
export function ablationProblem(spec: string): string | null {
  const { part, groups } = ablationParts(spec);
  const how = `join groups with + to zero them together; ${MODEL_PARTS.join(':g, ')}:g zero g for that part of the model alone`;
  if (part === undefined) return `unknown model part "${spec.slice(0, spec.indexOf(':'))}"; known: ${MODEL_PARTS.join(', ')} (${how})`;
  const unknown = groups.find((g) => !isInputGroup(g));
  if (unknown === undefined) return null;
  return `unknown input group "${unknown}"; known: ${INPUT_GROUPS.join(', ')} (${how})`;
}

/** What each input group holds, in words a researcher reads beside the switch that zeroes it. */
export const INPUT_GROUP_MEANING: Readonly<Record<InputGroup, string>> = {
  kind: "the memory's kind label (observation, relay, summary, note, …)",
  text: 'the words of the memories, the question and the hypotheses, and every feature read from them',
  stance: 'what the claims and the stated values say: which answer each memory backs',
  provenance: 'the recorded derivation edges between the memories',
  metadata: 'what memories report of themselves (observed, source type, reliability), their time and their agents',
};
