// Migration 7: the engine's own postings beside FTS5's index (electron/store/postings.ts), from which
// retrieval ranks by bm25() without scoring every match. A store written before this version gets them from
// its memories' texts here, once.
import { PostingsWriter } from '../postings';
import type { Migration } from './index';

export const postings: Migration = {
  version: 7,
  name: 'postings',
  up(db) {
    db.exec(`
      CREATE TABLE memory_postings (
        id   INTEGER PRIMARY KEY,
        term TEXT NOT NULL,   -- a word as FTS5 tokenises it
        data BLOB NOT NULL    -- varints of (rowid delta, f, D) per row holding it, rowids ascending
      );
      CREATE INDEX memory_postings_term ON memory_postings (term, id);
    `);
    const writer = new PostingsWriter(db);
    for (const row of db.prepare<[], { rowid: number; text: string }>('SELECT rowid, text FROM memories ORDER BY rowid').iterate()) {
      writer.add(row.rowid, row.text);
    }
    writer.write();
  },
};
