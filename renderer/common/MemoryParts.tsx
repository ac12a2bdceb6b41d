// Pieces of a memory shown in full, shared by the inspector's drawer and the provenance explorer's.

import type { Claim } from '../../shared/domain';
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
