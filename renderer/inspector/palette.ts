// The slot palette: one fixed categorical hue per evidence slot j, shared by the heatmap, the graph and
// the arbitration bars, so "slot 3" is the same colour everywhere on the page. Hues are calm, distinct
// under common colour-vision deficiencies as far as 8 hues allow, and none is the page's error red.

export const SLOT_PALETTE = [
  '#4e79a7', // blue
  '#f28e2b', // orange
  '#76b7b2', // teal
  '#59a14f', // green
  '#d4a72c', // ochre
  '#b07aa1', // mauve
  '#9c755f', // brown
  '#e17ca0', // pink
] as const;

/** The colour of slot j (0-based); slots beyond the palette reuse it cyclically. */
export function slotColor(j: number): string {
  return SLOT_PALETTE[((j % SLOT_PALETTE.length) + SLOT_PALETTE.length) % SLOT_PALETTE.length] as string;
}

/** Slot j's colour at opacity `alpha` in [0, 1], as an rgba() string (for z_ij-weighted fills). */
export function slotTint(j: number, alpha: number): string {
  const hex = slotColor(j);
  const r = Number.parseInt(hex.slice(1, 3), 16);
  const g = Number.parseInt(hex.slice(3, 5), 16);
  const b = Number.parseInt(hex.slice(5, 7), 16);
  return `rgba(${r}, ${g}, ${b}, ${Math.max(0, Math.min(1, alpha)).toFixed(3)})`;
}

/** The display name of slot j: 1-based, as researchers count them. */
export function slotName(j: number): string {
  return `S${j + 1}`;
}
