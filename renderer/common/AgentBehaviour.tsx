// An agent's behaviour over the store (api.agent): of its dated statements, how many were the first of
// their value on their key. A copy, a relay or a summary follows what it derives from, so an agent that
// only derives is never first, whatever its memories' kind or `observed` say; featurizer version 6 reads
// this share (electron/store/agent-behaviour.ts). Shown beside a memory's agent.

import { api } from '../api/client';
import { FIRST_SHARE_EXPLAINED, firstShareText } from './agentText';
import { useSession } from './session';
import { useFetch } from './useFetch';

export function AgentBehaviour({ agent }: { agent: string }) {
  // Read again when the store changes (an import, another store with an agent of the same id).
  const revision = useSession((s) => s.revision);
  const fetched = useFetch(`agent:${agent}:${revision}`, () => api.agent({ id: agent }));
  if (fetched.error) return <span className="error-text">{(fetched.error as Error).message}</span>;
  if (!fetched.data) return <span className="muted">reading the store…</span>;
  return (
    <span data-testid="agent-first-share" title={FIRST_SHARE_EXPLAINED}>
      {firstShareText(fetched.data)}
    </span>
  );
}
