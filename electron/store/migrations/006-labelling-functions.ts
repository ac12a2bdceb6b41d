// Migration 6: the researchers' labelling functions (electron/labelling/): one row per function, its
// declarative JSON form (schema.ts, versioned inside the JSON) kept verbatim, ordered by `position`
// (the label model's columns). Names are unique so that export/import and the view can refer to them.
import type { Migration } from './index';

export const labellingFunctions: Migration = {
  version: 6,
  name: 'labelling-functions',
  up(db) {
    db.exec(`
      CREATE TABLE labelling_functions (
        id       INTEGER PRIMARY KEY,
        name     TEXT NOT NULL UNIQUE,
        position INTEGER NOT NULL,
        spec     TEXT NOT NULL,
        author   TEXT,
        updated  TEXT NOT NULL
      );
    `);
  },
};
