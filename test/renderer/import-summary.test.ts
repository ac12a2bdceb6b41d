// Home's one line after an import (renderer/home/importSummary.ts): the rows, and the agents that memories
// name but no agents.jsonl row lists, each with the line that first names it.
import { describe, expect, it } from 'vitest';
import { importSummary } from '../../renderer/home/importSummary';
import type { JobStatus } from '../../shared/views';

const done = (result: unknown): JobStatus => ({ id: 'j', kind: 'import', storePath: '/s', state: 'done', done: 1, total: 1, message: 'analysing', result });

describe('the import summary', () => {
  it('names an agent that only memories name (a typo makes one), with where, beside the rows', () => {
    const line = importSummary(done({ agents: 24, implicitAgents: 1, implicitAgentsNamed: ['ghost-99 (memories.jsonl:300)'], memories: 1146, edges: 375, queries: 80, labels: 0, analysed: 80 }));
    expect(line).toBe(
      'Imported 1,146 memories, 375 edges, 80 queries, 0 labels, 24 agents; 1 agent named only by memories, created with unknown reliability: ghost-99 (memories.jsonl:300); 80 queries analysed.',
    );
    const many = importSummary(done({ agents: 0, implicitAgents: 22, implicitAgentsNamed: Array.from({ length: 20 }, (_, i) => `a${i} (memories.jsonl:${i + 1})`), memories: 22 }));
    expect(many).toContain('22 agents named only by memories');
    expect(many).toContain('a19 (memories.jsonl:20), and 2 more.');
  });

  it('says nothing of agents where every one is listed, and nothing at all for another job or before the end', () => {
    expect(importSummary(done({ agents: 3, implicitAgents: 0, implicitAgentsNamed: [], memories: 5 }))).toBe('Imported 5 memories, 3 agents.');
    expect(importSummary({ ...done({}), state: 'running' })).toBeNull();
    expect(importSummary({ ...done({}), kind: 'export' })).toBeNull();
  });
});
