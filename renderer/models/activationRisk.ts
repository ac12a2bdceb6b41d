// Before a model is made active: is it worse on validation than the model in use? Training from a small
// store easily gives a model far below the shipped one (44.8 CMR against 82.9, with extreme τ's), and
// "Use this model" would silently make every new analysis worse. Pure: the Models view asks before
// switching when this returns anything.

import type { ModelSummary } from '../../shared/views';

/** Differences smaller than this many points are noise on a 200-question validation split. */
export const TOLERANCE_POINTS = 1;

const COMPARED = [
  { key: 'accuracy', label: 'accuracy', better: 'high' },
  { key: 'cmr', label: 'CMR', better: 'high' },
  { key: 'err', label: 'ERR', better: 'high' },
  { key: 'rs', label: 'RS', better: 'low' },
] as const;

/** Why switching from `active` to `candidate` may make analyses worse; empty when it should not. */
export function activationWarnings(candidate: ModelSummary, active: ModelSummary | undefined): string[] {
  if (!active || candidate.file === active.file) return [];
  const out: string[] = [];
  if (!candidate.validation) out.push(`${candidate.name} has no validation metrics: nothing says it is as good as ${active.name}`);
  else if (active.validation) {
    if ((candidate.validatedOn ?? null) !== (active.validatedOn ?? null)) {
      out.push(
        `${candidate.name} was validated on ${candidate.validatedOn ?? 'unknown data'}, ${active.name} on ${active.validatedOn ?? 'unknown data'}: their metrics do not compare`,
      );
    }
    for (const m of COMPARED) {
      const x = candidate.validation[m.key];
      const y = active.validation[m.key];
      if (x === null || y === null) continue;
      const worse = m.better === 'high' ? y - x : x - y;
      if (worse >= TOLERANCE_POINTS) out.push(`${m.label} ${x.toFixed(1)} against ${y.toFixed(1)} for ${active.name} (${worse.toFixed(1)} points worse)`);
    }
  }
  if (candidate.inSample) out.push(`${candidate.name} was trained on the open store: re-analysing this store with it is in-sample, its decisions here look better than they are`);
  return out;
}
