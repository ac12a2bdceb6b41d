// simulatorConfig validates every knob (zod, strict: out-of-range and unknown fields are errors that name
// the path); describeConfig documents every leaf field of the schema.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeConfig, SimulatorConfigSchema, simulatorConfig } from '../../electron/simulator/config';

function zodIssues(input: unknown): z.core.$ZodIssue[] {
  try {
    simulatorConfig(input);
  } catch (err) {
    expect(err).toBeInstanceOf(z.ZodError);
    return (err as z.ZodError).issues;
  }
  throw new Error(`simulatorConfig accepted ${JSON.stringify(input)}`);
}

/** Peels default / prefault / optional wrappers; keeps the first description met on the way. */
function peel(schema: z.ZodType): { inner: z.ZodType; description?: string } {
  let s = schema;
  let description = s.description;
  while (s instanceof z.ZodDefault || s instanceof z.ZodPrefault || s instanceof z.ZodOptional) {
    s = s.unwrap() as z.ZodType;
    description ??= s.description;
  }
  return { inner: s, description };
}

/** Every leaf field of the schema, by dotted path, with its description. */
function leaves(schema: z.ZodType, prefix: string[] = []): Array<{ path: string; description?: string }> {
  const { inner, description } = peel(schema);
  if (inner instanceof z.ZodObject) {
    return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([k, child]) => leaves(child, [...prefix, k]));
  }
  return [{ path: prefix.join('.'), description }];
}

function at(value: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);
}

describe('simulatorConfig', () => {
  it('fills every field with its default from an empty or missing config', () => {
    const defaults = simulatorConfig({});
    expect(simulatorConfig()).toEqual(defaults);
    expect(defaults).toMatchObject({ seed: 1, retrievalK: 10, world: { subjects: 60 }, evidence: { provenanceRate: 0.6 } });
    expect(defaults.variants.corrProvenanceRate).toBeUndefined();
    // A partial section keeps the section's other defaults.
    const partial = simulatorConfig({ world: { subjects: 7 } });
    expect(partial.world).toEqual({ ...defaults.world, subjects: 7 });
    expect(partial.agents).toEqual(defaults.agents);
  });

  it.each([
    [{ seed: -1 }, ['seed']],
    [{ seed: 1.5 }, ['seed']],
    [{ world: { subjects: 0 } }, ['world', 'subjects']],
    [{ world: { horizon: 0 } }, ['world', 'horizon']],
    [{ agents: { observers: 1 } }, ['agents', 'observers']],
    [{ agents: { reliabilityKnownRate: 1.2 } }, ['agents', 'reliabilityKnownRate']],
    [{ queries: { minorityRate: 1.5 } }, ['queries', 'minorityRate']],
    [{ evidence: { provenanceRate: -0.1 } }, ['evidence', 'provenanceRate']],
    [{ evidence: { truthSources: [3, 2] } }, ['evidence', 'truthSources']],
    [{ evidence: { truthSources: [0, 2] } }, ['evidence', 'truthSources', 0]],
    [{ variants: { corrProvenanceRate: 2 } }, ['variants', 'corrProvenanceRate']],
    [{ retrievalK: 0 }, ['retrievalK']],
    [{ world: { subjects: '30' } }, ['world', 'subjects']],
  ])('rejects the out-of-range %j, naming its path', (input, path) => {
    const issues = zodIssues(input);
    expect(issues.map((i) => i.path)).toEqual([path]);
  });

  it.each([
    [{ bogus: 1 }, [], 'bogus'],
    [{ world: { subject: 30 } }, ['world'], 'subject'],
    [{ evidence: { provenance: 0.5 } }, ['evidence'], 'provenance'],
    [{ variants: { corrRate: 0.5 } }, ['variants'], 'corrRate'],
  ])('rejects the unknown field in %j, naming where it is and what it is', (input, path, key) => {
    const issues = zodIssues(input);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'unrecognized_keys', path, keys: [key] });
    expect(issues[0]!.message).toContain(key);
  });
});

describe('describeConfig', () => {
  const lines = describeConfig().map((l) => l.split('\t'));
  const schemaLeaves = leaves(SimulatorConfigSchema);

  it('the schema itself documents every leaf (sanity for the walk below)', () => {
    expect(schemaLeaves.length).toBeGreaterThan(30);
    for (const leaf of schemaLeaves) expect(leaf.description?.trim(), leaf.path).toBeTruthy();
  });

  it('lists every leaf field of the schema once, in schema order', () => {
    for (const l of lines) expect(l, l.join('\\t')).toHaveLength(3);
    expect(lines.map((l) => l[0])).toEqual(schemaLeaves.map((l) => l.path));
  });

  it("gives each field a non-empty meaning (the schema's own) and its default", () => {
    const defaults = simulatorConfig({});
    const byPath = new Map(schemaLeaves.map((l) => [l.path, l.description]));
    for (const [field, shown, meaning] of lines) {
      expect(meaning?.trim(), field).toBeTruthy();
      expect(meaning, field).toBe(byPath.get(field!));
      expect(shown, field).toBe(JSON.stringify(at(defaults, field!)) ?? '(unset)');
    }
    expect(lines.find((l) => l[0] === 'variants.corrProvenanceRate')?.[1]).toBe('(unset)');
  });
});
