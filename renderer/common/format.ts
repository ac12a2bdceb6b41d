// Number formatting for tables and summaries: one place decides how many digits a value shows.

const DASH = '—';

/** A number with a fixed count of decimals; null / undefined / NaN show a dash. */
export function num(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || Number.isNaN(value)) return DASH;
  return value.toFixed(digits);
}

/** A percentage already on the 0-100 scale (the eval report's Acc, CMR, RS, IEG, ERR). */
export function pct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || Number.isNaN(value) ? DASH : value.toFixed(digits);
}

/** An integer with thousands separators. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** A short local date-time for run lists. */
export function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export { DASH };
