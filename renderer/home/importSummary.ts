// What an import job's result says in one line on Home: the rows imported, the agents that memories name
// but no agents.jsonl row lists (often a typo, so each is named with the line that first names it), and the
// questions analysed.

import type { JobStatus } from '../../shared/views';
import { count } from '../common/format';

interface ImportResult {
  memories?: number;
  edges?: number;
  queries?: number;
  labels?: number;
  agents?: number;
  implicitAgents?: number;
  implicitAgentsNamed?: string[];
  analysed?: number;
}

export function importSummary(status: JobStatus | null | undefined): string | null {
  if (status?.state !== 'done' || status.kind !== 'import') return null;
  const r = (status.result ?? {}) as ImportResult;
  const parts = (['memories', 'edges', 'queries', 'labels', 'agents'] as const)
    .filter((k) => typeof r[k] === 'number')
    .map((k) => `${count(r[k] as number)} ${k}`);
  const analysed = typeof r.analysed === 'number' ? `; ${count(r.analysed)} queries analysed` : '';
  // An agent id no agents.jsonl row lists (often a typo) becomes an agent of unknown reliability: say which.
  const n = r.implicitAgents ?? 0;
  const named = r.implicitAgentsNamed ?? [];
  const implicit =
    n > 0 ? `; ${count(n)} agent${n === 1 ? '' : 's'} named only by memories, created with unknown reliability: ${named.join(', ')}${n > named.length ? `, and ${count(n - named.length)} more` : ''}` : '';
  return `Imported ${parts.join(', ') || 'the bundle'}${implicit}${analysed}.`;
}
