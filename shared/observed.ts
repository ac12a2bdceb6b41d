// How the engine reads a memory's `observed` (o_i of Eq. 6) against its recorded provenance, shared so
// that the views show the value the arbitration used beside the one the memory carries.

/**
 * o_i as the engine reads it. A memory with a recorded parent was derived from it (a provenance edge
 * says "child: memory derived from the parent"), so it is not a direct observation, whatever its own
 * `observed` says: recorded provenance is written by the store's keeper, `observed` by the memory's
 * writer, and copies that pose as observations are exactly the false majority CAMA exists to catch.
 * The rule only ever lowers o_i: a memory with no recorded parent keeps its own value (provenance is
 * often recorded for only some derivations, so "no parent on record" says nothing).
 */
export function observedAsRead(observed: number | undefined, derivedOnRecord: boolean): number | undefined {
  return derivedOnRecord && observed !== undefined && observed > 0 ? 0 : observed;
}
