// An agent's behaviour over the store in words (the drawer's "agent's statements"; api.agent).

import type { AgentView } from '../../shared/views';

export const FIRST_SHARE_EXPLAINED =
  "Of the agent's dated statements in the store (claims asserting a value), how many were the first of their value on their key. " +
  'An agent that copies, relays or summarises follows what it derives from and is never first; an observer often is. ' +
  'Where the agent has too few statements (a store without claims), the model reads its texts instead: how many of its dated memories repeat no earlier text.';

/**
 * What the store says of an agent's statements, in words, and where they are too few to say anything, what
 * its texts say (what featurizer version 6 reads then).
 */
export function firstShareText(a: AgentView): string {
  const claims = claimsText(a);
  const t = a.text;
  if (a.firstShare !== undefined || t === undefined || t.memories === 0) return claims;
  const counted = `${t.firsts} of ${t.memories} dated ${t.memories === 1 ? 'memory repeats' : 'memories repeat'} no earlier text`;
  if (t.share === undefined) return `${claims}; by its texts, ${counted}: too few to say`;
  const share = `${counted} (${t.share.toFixed(2)})`;
  return `${claims}; by its texts, ${t.firsts === 0 ? `${share}: it repeats what others wrote` : share}`;
}

function claimsText(a: AgentView): string {
  if (a.statements === 0) return 'no dated statements with claims';
  const counted = `first in ${a.firsts} of ${a.statements} dated statement${a.statements === 1 ? '' : 's'}`;
  if (a.firstShare === undefined) return `${counted}: too few to say (${a.minStatements} needed)`;
  const share = `${counted} (${a.firstShare.toFixed(2)})`;
  return a.firsts === 0 ? `${share}: never first, it follows what others stated` : share;
}
