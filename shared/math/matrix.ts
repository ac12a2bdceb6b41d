// A dense row-major matrix over a Float64Array: the one shape the CAMA math works on.

export interface Matrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
}

export function matrix(rows: number, cols: number, data?: ArrayLike<number>): Matrix {
  if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(cols) || cols < 0) {
    throw new RangeError(`matrix: bad shape ${rows}×${cols}`);
  }
  const out = new Float64Array(rows * cols);
  if (data !== undefined) {
    if (data.length !== rows * cols) {
      throw new RangeError(`matrix: ${data.length} values for a ${rows}×${cols} matrix`);
    }
    out.set(data);
  }
  return { rows, cols, data: out };
}

/** Builds a matrix from nested arrays (all rows must have `cols` entries). */
export function fromRows(rows: readonly (readonly number[])[], cols?: number): Matrix {
  const c = cols ?? rows[0]?.length ?? 0;
  const m = matrix(rows.length, c);
  rows.forEach((row, i) => {
    if (row.length !== c) throw new RangeError(`fromRows: row ${i} has ${row.length} values, expected ${c}`);
    m.data.set(row, i * c);
  });
  return m;
}

export function toRows(m: Matrix): number[][] {
  const out: number[][] = [];
  // An indexed copy: Array.from over a subarray view costs several times more, and every step record makes these.
  for (let i = 0; i < m.rows; i++) {
    const row = new Array<number>(m.cols);
    for (let j = 0; j < m.cols; j++) row[j] = m.data[i * m.cols + j] as number;
    out.push(row);
  }
  return out;
}

export function at(m: Matrix, i: number, j: number): number {
  return m.data[i * m.cols + j] as number;
}

export function row(m: Matrix, i: number): Float64Array {
  return m.data.subarray(i * m.cols, (i + 1) * m.cols);
}

/** Appends the rows of `b` under `a` (same column count). */
export function stackRows(a: Matrix, b: Matrix): Matrix {
  if (a.cols !== b.cols) throw new RangeError(`stackRows: ${a.cols} vs ${b.cols} columns`);
  const m = matrix(a.rows + b.rows, a.cols);
  m.data.set(a.data, 0);
  m.data.set(b.data, a.data.length);
  return m;
}
