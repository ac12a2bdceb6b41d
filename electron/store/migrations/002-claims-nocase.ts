// Migration 2: claims are looked up by (subject, attribute) regardless of letter case, as the engine
// compares them ("North Gate" and "north gate" are one key). The index follows the lookup's collation.
import type { Migration } from './index';

export const claimsNoCase: Migration = {
  version: 2,
  name: 'claims-nocase',
  up(db) {
    db.exec(`
      DROP INDEX claims_key;
      CREATE INDEX claims_key_nocase ON claims(subject COLLATE NOCASE, attribute COLLATE NOCASE);
    `);
  },
};
