// The drawer's "agent's statements" in words (renderer/common/agentText.ts): the claims where the agent
// has enough of them, and otherwise what its texts say, which is what featurizer version 6 reads then.
import { describe, expect, it } from 'vitest';
import { firstShareText } from '../../renderer/common/agentText';
import type { AgentView } from '../../shared/views';

const agent = (over: Partial<AgentView>): AgentView => ({ id: 'a', memories: 12, statements: 0, firsts: 0, minStatements: 10, ...over });

describe("an agent's statements in words", () => {
  it('gives the claim share alone where the agent has enough statements', () => {
    expect(firstShareText(agent({ statements: 12, firsts: 3, firstShare: 0.25 }))).toBe('first in 3 of 12 dated statements (0.25)');
    expect(firstShareText(agent({ statements: 12, firsts: 0, firstShare: 0 }))).toBe('first in 0 of 12 dated statements (0.00): never first, it follows what others stated');
  });

  it('reads a store without claims by the texts, and says when they are too few too', () => {
    expect(firstShareText(agent({ text: { memories: 12, firsts: 0, share: 0 } }))).toBe(
      'no dated statements with claims; by its texts, 0 of 12 dated memories repeat no earlier text (0.00): it repeats what others wrote',
    );
    expect(firstShareText(agent({ statements: 4, firsts: 4, text: { memories: 20, firsts: 15, share: 0.75 } }))).toBe(
      'first in 4 of 4 dated statements: too few to say (10 needed); by its texts, 15 of 20 dated memories repeat no earlier text (0.75)',
    );
    expect(firstShareText(agent({ text: { memories: 1, firsts: 1 } }))).toBe('no dated statements with claims; by its texts, 1 of 1 dated memory repeats no earlier text: too few to say');
    expect(firstShareText(agent({}))).toBe('no dated statements with claims');
    expect(firstShareText(agent({ text: { memories: 0, firsts: 0 } }))).toBe('no dated statements with claims');
  });
});
