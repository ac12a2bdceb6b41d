export { Store } from './store';
export { StoreTooNewError } from './errors';
export type { StoredMemory, SearchHit, SearchOptions } from './memories';
export type { StoredLabel, StoreCounts } from './catalog';
export type { EpisodeFilter, EpisodeSummary } from './episodes';
export type { EvalResultRow, EvalRun } from './evalRuns';
export type { BundleRecords, AgentRecord, MemoryRecord, EdgeRecord, QueryRecord, LabelRecord, Extra } from './bundleRows';
