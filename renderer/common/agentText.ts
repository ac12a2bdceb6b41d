// An agent's behaviour over the store in words (the drawer's "agent's statements"; api.agent).

import type { AgentView } from '../../shared/views';

export const FIRST_SHARE_EXPLAINED =
  "Of the agent's dated statements in the store (claims asserting a value), how many were the first of their value on their key. " +
  'An agent that copies, relays or summarises follows what it derives from and is never first; an observer often is.';

/** What the store says of an agent's statements, in words. */
export function firstShareText(a: AgentView): string {
  if (a.statements === 0) return 'no dated statements with claims: nothing to say';
  const counted = `first in ${a.firsts} of ${a.statements} dated statement${a.statements === 1 ? '' : 's'}`;
  if (a.firstShare === undefined) return `${counted}: too few to say (${a.minStatements} needed)`;
  const share = `${counted} (${a.firstShare.toFixed(2)})`;
  return a.firsts === 0 ? `${share}: never first, it follows what others stated` : share;
}
