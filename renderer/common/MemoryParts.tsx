// Pieces of a memory shown in full, shared by the inspector's drawer and the provenance explorer's.

import type { Claim } from '../../shared/domain';
import { observedAsRead } from '../../shared/observed';
import { num } from './format';
import './common.css';

/** What a memory claims: "asserts north gate · state = open". */
export function ClaimList({ claims }: { claims: readonly Claim[] }) {
  if (claims.length === 0) return <p className="muted memory-small">no claims</p>;
  return (
    <ul className="memory-claims">
      {claims.map((c, k) => (
        <li key={k}>
          <span className={c.polarity === '+' ? 'memory-pos' : 'memory-neg'}>{c.polarity === '+' ? 'asserts' : 'denies'}</span> {c.subject} ·{' '}
          {c.attribute} = <b>{c.value}</b>
        </li>
      ))}
    </ul>
  );
}

/** The bundle's ground-truth factor, labelled as what it is: evaluation data the engine never reads. */
export function GroundTruthFactor({ factor }: { factor: string | undefined }) {
  if (factor === undefined) return null;
  return (
    <p className="muted memory-small" title="from the bundle; the engine never reads it">
      ground-truth factor (evaluation only): <code>{factor}</code>
    </p>
  );
}

/** `observed` as a researcher wrote it: true and false (1 and 0) as yes and no, a degree in between as a number. */
export function observedText(o: number): string {
  return o === 1 ? 'yes' : o === 0 ? 'no' : num(o);
}

/**
 * A memory's `observed` and, where recorded provenance overrules it, the value the engine reads
 * (shared/observed.ts): a memory derived on record is no observation, whatever it says of itself.
 */
export function ObservedValue({
  observed,
  parents,
  readAgainstRecord = true,
}: {
  observed: number | undefined;
  parents: readonly unknown[];
  /** False where what is shown was computed without the rule (an episode recorded before it). */
  readAgainstRecord?: boolean;
}) {
  if (observed === undefined) return null;
  const read = readAgainstRecord ? observedAsRead(observed, parents.length > 0) : observed;
  return (
    <>
      <span className="num" data-testid="observed-value" title={`o = ${observed}`}>
        {observedText(observed)}
      </span>
      {read !== observed && (
        <span
          className="muted memory-small"
          data-testid="observed-overruled"
          title="It has a recorded parent, so it was derived: the reliability head and the evidence model read it as not observed."
        >
          {' '}
          · read as {observedText(read ?? 0)}: derived on record
        </span>
      )}
    </>
  );
}
