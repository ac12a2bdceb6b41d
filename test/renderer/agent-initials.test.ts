// The inspector's agent badge (renderer/inspector/derive.ts, agentInitials).
import { describe, expect, it } from 'vitest';
import { agentInitials } from '../../renderer/inspector/derive';

describe("an agent's badge", () => {
  it('takes initials and the number, in any script', () => {
    expect(agentInitials('Scout 3')).toBe('S3');
    expect(agentInitials('relay-06')).toBe('R6');
    expect(agentInitials('digest')).toBe('DI');
    // A name that opens with a letter outside A-Z keeps it ("ET" before: the É and the Ç were dropped).
    expect(agentInitials('Çelik "the quoter"')).toBe('ÇT');
    expect(agentInitials('Émile Zola')).toBe('ÉZ');
    expect(agentInitials('Ødegaard')).toBe('ØD');
  });
});
