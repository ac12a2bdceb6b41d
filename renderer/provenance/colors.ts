// The explorer's two colourings. By cascade: neighbouring cascades (consecutive indices, packed side
// by side) get hues a golden angle apart, so no two neighbours look alike however many there are. By
// kind: one fixed hue per memory kind the stores hold. Neither uses the inspector's slot palette: a
// cascade is not an evidence slot.

const GOLDEN_ANGLE = 137.508;

/** The colour of cascade c (0-based, largest first). */
export function cascadeColor(c: number): string {
  const hue = (c * GOLDEN_ANGLE + 212) % 360;
  // Alternate lightness a little as well, for hues that sit close after wrapping round.
  return `hsl(${hue.toFixed(1)} 58% ${c % 2 === 0 ? 42 : 50}%)`;
}

export const KIND_COLORS: Record<string, string> = {
  observation: '#2f7d5b',
  relay: '#d27a1f',
  summary: '#7b4fd6',
  note: '#3f86b8',
};
export const OTHER_KIND_COLOR = '#7d8894';

export function kindColor(kind: string | undefined): string {
  return (kind !== undefined ? KIND_COLORS[kind] : undefined) ?? OTHER_KIND_COLOR;
}
