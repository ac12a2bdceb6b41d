// How the evaluation view groups the methods the backend lists (api.evalMethods).

import type { CallResult } from '../../shared/contract';

export type EvalMethod = CallResult<'evalMethods'>[number];

export const GROUPS: ReadonlyArray<EvalMethod['group']> = ['baseline', 'cama', 'ablation'];

export const GROUP_LABEL: Record<EvalMethod['group'], string> = { baseline: 'baselines', cama: 'CAMA', ablation: 'ablations' };
