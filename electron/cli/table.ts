// Plain-text tables for the terminal.

/** Columns align left or right; by default the first left and the rest (numbers) right. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const side = (c: number): 'l' | 'r' => align?.[c] ?? (c === 0 ? 'l' : 'r');
  const line = (cells: readonly string[]): string =>
    cells.map((cell, c) => (side(c) === 'l' ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function fixed(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits);
}

/** An interval as "lo to hi" (one decimal), or – where there is none. */
export function span(x: readonly [number, number] | null | undefined, digits = 1): string {
  return x ? `${fixed(x[0], digits)} to ${fixed(x[1], digits)}` : '–';
}
