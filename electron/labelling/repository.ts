// The store's labelling functions (table labelling_functions, migration 006): read, save (insert or
// replace by name), delete, and the export file. Every spec is validated on the way in and out, so a
// row edited by hand that no longer parses is reported by name rather than silently skipped.
import type { Store } from '../store/store';
import {
  type LabellingFunction,
  LabellingFunctionFileSchema,
  parseLabellingFunction,
  type StoredLabellingFunction,
} from '../../shared/labelling-functions';

interface Row {
  id: number;
  name: string;
  spec: string;
  author: string | null;
  updated: string;
}

export function listFunctions(store: Store): StoredLabellingFunction[] {
  const rows = store.db.prepare('SELECT id, name, spec, author, updated FROM labelling_functions ORDER BY position, id').all() as Row[];
  return rows.map((r) => {
    try {
      return { id: r.id, spec: parseLabellingFunction(JSON.parse(r.spec)), author: r.author, updated: r.updated };
    } catch (err) {
      throw new Error(`labelling function "${r.name}" in the store: ${(err as Error).message}`);
    }
  });
}

/** Saves `raw` (validated); a function of the same name is replaced in place (its position kept). */
export function saveFunction(store: Store, raw: unknown, author?: string, replacing?: number): StoredLabellingFunction {
  const spec = parseLabellingFunction(raw);
  const now = new Date().toISOString();
  const db = store.db;
  return db.transaction(() => {
    const clash = db.prepare('SELECT id FROM labelling_functions WHERE name = ?').get(spec.name) as { id: number } | undefined;
    if (replacing !== undefined) {
      if (clash && clash.id !== replacing) throw new Error(`a labelling function named "${spec.name}" already exists`);
      const r = db.prepare('UPDATE labelling_functions SET name = ?, spec = ?, author = ?, updated = ? WHERE id = ?').run(spec.name, JSON.stringify(spec), author ?? null, now, replacing);
      if (r.changes === 0) throw new Error(`no labelling function with id ${replacing}`);
      return { id: replacing, spec, author: author ?? null, updated: now };
    }
    if (clash) {
      db.prepare('UPDATE labelling_functions SET spec = ?, author = ?, updated = ? WHERE id = ?').run(JSON.stringify(spec), author ?? null, now, clash.id);
      return { id: clash.id, spec, author: author ?? null, updated: now };
    }
    const pos = (db.prepare('SELECT coalesce(max(position), 0) + 1 AS p FROM labelling_functions').get() as { p: number }).p;
    const id = Number(
      db.prepare('INSERT INTO labelling_functions (name, position, spec, author, updated) VALUES (?, ?, ?, ?, ?)').run(spec.name, pos, JSON.stringify(spec), author ?? null, now).lastInsertRowid,
    );
    return { id, spec, author: author ?? null, updated: now };
  })();
}

export function deleteFunction(store: Store, id: number): void {
  const r = store.db.prepare('DELETE FROM labelling_functions WHERE id = ?').run(id);
  if (r.changes === 0) throw new Error(`no labelling function with id ${id}`);
}

/** The export file: every function, in order, as JSON text. */
export function exportFunctions(store: Store): string {
  const functions: LabellingFunction[] = listFunctions(store).map((f) => f.spec);
  return `${JSON.stringify({ format: 'cama-labelling-functions', version: 1, functions }, null, 2)}\n`;
}

/** Imports an export file's functions (replacing those of the same name); returns how many. */
export function importFunctions(store: Store, text: string, author?: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`labelling functions file: not JSON (${(err as Error).message})`);
  }
  const file = LabellingFunctionFileSchema.safeParse(parsed);
  if (!file.success) throw new Error(`labelling functions file: ${file.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`);
  store.db.transaction(() => {
    for (const f of file.data.functions) saveFunction(store, f, author);
  })();
  return file.data.functions.length;
}
