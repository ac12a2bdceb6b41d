// Checks every line's value as a whole, before the schemas look at it: how deeply it nests, and that each
// string (field names included) is Unicode text.
//
// Depth: a line nested thousands of levels deep parses (JSON.parse does not recurse) but later overflows
// the stack in whatever walks it recursively (JSON.stringify when unknown fields are stored). Lone
// surrogates: JSON may escape one ("\ud800"), but it is not Unicode text; SQLite stores text as UTF-8,
// which cannot hold it, so "a\ud800" and "a\udc00" would both read back as "a\ufffd": two ids become one.

/** Real bundles nest 3 levels (memory, claims, claim); unknown fields get plenty of room beyond that. */
export const MAX_DEPTH = 64;

export interface ShapeIssue {
  /** Where, as a zod-style path (the field names and array indices). */
  path: PropertyKey[];
  message: string;
}

/** A UTF-16 surrogate not paired with its other half; with the u flag, a well-formed pair never matches. */
const LONE_SURROGATE = /\p{Cs}/u;

function surrogateNote(s: string): string | undefined {
  const m = LONE_SURROGATE.exec(s);
  if (!m) return undefined;
  const unit = `\\u${m[0].charCodeAt(0).toString(16).padStart(4, '0')}`;
  return `a lone UTF-16 surrogate (${unit} at character ${m.index + 1}), which is not Unicode text: UTF-8 cannot store it`;
}

/** A value met in the walk; its path is rebuilt from the parents only when there is something to report. */
interface Frame {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Frame | undefined;
  depth: number;
}

function pathOf(frame: Frame | undefined): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let f = frame; f && f.key !== undefined; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * The line's problems, in document order: strings with lone surrogates, and nesting deeper than
 * `maxDepth` (reported once, at the top-level field that holds it; nothing below it is looked at).
 * Iterative, so that the check itself cannot overflow the stack.
 */
export function shapeIssues(root: Record<string, unknown>, maxDepth = MAX_DEPTH): ShapeIssue[] {
  const issues: ShapeIssue[] = [];
  const stack: Frame[] = [{ value: root, key: undefined, parent: undefined, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (typeof value === 'string') {
      const note = surrogateNote(value);
      if (note) issues.push({ path: pathOf(frame), message: `holds ${note}` });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) {
      issues.push({ path: pathOf(frame).slice(0, 1), message: `nests arrays and objects more than ${maxDepth} levels deep` });
      break; // one report is enough: the rest of such a line is of no interest
    }
    const children: Array<[PropertyKey, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    for (const [key] of children) {
      const note = typeof key === 'string' ? surrogateNote(key) : undefined;
      if (note) issues.push({ path: pathOf(frame), message: `the field name ${JSON.stringify(key)} holds ${note}` });
    }
    // Pushed in reverse, so that they are visited in the order they appear in the line.
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i]!;
      stack.push({ value: child, key, parent: frame, depth: depth + 1 });
    }
  }
  return issues;
}
