// Migration 1: the initial schema. Columns are snake_case; `extra` holds a row's unknown bundle fields as a
// JSON object (insertion order kept) so that export round-trips them (docs/bundle-format.md: unknown fields are kept).
import type { Migration } from './index';

export const initial: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      -- implicit = 1: created only because a memory named it (docs/bundle-format.md); export omits such agents.
      CREATE TABLE agents (
        id          TEXT PRIMARY KEY,
        name        TEXT,
        reliability REAL CHECK (reliability IS NULL OR (reliability >= 0 AND reliability <= 1)),
        implicit    INTEGER NOT NULL DEFAULT 0 CHECK (implicit IN (0, 1)),
        extra       TEXT
      );

      -- The explicit INTEGER PRIMARY KEY (named rowid, so it is the rowid) keeps rowids stable across VACUUM;
      -- the FTS index and claims refer to it.
      -- observed: the bundle's JSON value verbatim (true stays true, 0.7 stays 0.7).
      -- claims:   the bundle's JSON array verbatim (unknown claim fields such as factor included); NULL = absent.
      -- pool:     NULL = absent in the bundle (means base); kept apart from an explicit 'base' for round-trip.
      CREATE TABLE memories (
        rowid       INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        agent       TEXT NOT NULL REFERENCES agents(id),
        text        TEXT NOT NULL,
        kind        TEXT,
        time        REAL,
        source_type TEXT,
        observed    TEXT,
        claims      TEXT,
        pool        TEXT CHECK (pool IN ('base', 'corr', 'ind')),
        factor      TEXT,
        extra       TEXT
      );
      CREATE INDEX memories_agent ON memories(agent);

      -- External-content FTS5 index over memories.text. Filled by explicit inserts during import, not by a
      -- trigger: a trigger made bulk loads about 3.5x slower.
      CREATE VIRTUAL TABLE memories_fts USING fts5(text, content='memories', content_rowid='rowid');

      -- One row per claim, derived from memories.claims, for lookups by (subject, attribute).
      CREATE TABLE claims (
        memory_rowid INTEGER NOT NULL REFERENCES memories(rowid),
        idx          INTEGER NOT NULL,
        subject      TEXT NOT NULL,
        attribute    TEXT NOT NULL,
        value        TEXT NOT NULL,
        polarity     TEXT NOT NULL CHECK (polarity IN ('+', '-')),
        PRIMARY KEY (memory_rowid, idx)
      );
      CREATE INDEX claims_key ON claims(subject, attribute);

      CREATE TABLE provenance (
        child    TEXT NOT NULL REFERENCES memories(id),
        parent   TEXT NOT NULL REFERENCES memories(id),
        relation TEXT,
        extra    TEXT,
        PRIMARY KEY (child, parent),
        CHECK (child <> parent)
      );
      CREATE INDEX provenance_parent ON provenance(parent);

      -- tags, corr_ids, ind_ids: JSON arrays; NULL = absent in the bundle (absent tags mean "derive D_minor/D_rec").
      CREATE TABLE queries (
        id        TEXT PRIMARY KEY,
        text      TEXT NOT NULL,
        subject   TEXT,
        attribute TEXT,
        answer    TEXT,
        as_of     REAL,
        tags      TEXT,
        corr_ids  TEXT,
        ind_ids   TEXT,
        extra     TEXT
      );

      CREATE TABLE labels (
        id     INTEGER PRIMARY KEY,
        a      TEXT NOT NULL REFERENCES memories(id),
        b      TEXT NOT NULL REFERENCES memories(id),
        label  TEXT NOT NULL CHECK (label IN ('dependent', 'independent', 'unsure')),
        query  TEXT,
        author TEXT NOT NULL,
        time   TEXT NOT NULL,
        note   TEXT,
        extra  TEXT
      );
      CREATE INDEX labels_a ON labels(a);
      CREATE INDEX labels_b ON labels(b);

      -- query_id is not a foreign key: an episode may answer an ad-hoc question that no bundle holds.
      CREATE TABLE episodes (
        id         INTEGER PRIMARY KEY,
        query_id   TEXT NOT NULL,
        method     TEXT NOT NULL,
        variant    TEXT NOT NULL CHECK (variant IN ('base', 'corr', 'ind')),
        config     TEXT NOT NULL,
        answer     TEXT,
        n_steps    INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX episodes_query ON episodes(query_id);

      -- record: one StepRecord (shared/episode.ts) in exact JSON (see exactJson.ts).
      CREATE TABLE episode_steps (
        episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        t          INTEGER NOT NULL,
        record     TEXT NOT NULL,
        PRIMARY KEY (episode_id, t)
      );

      CREATE TABLE models (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        path       TEXT NOT NULL,
        card       TEXT NOT NULL,
        created_at TEXT NOT NULL,
        active     INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1))
      );
      CREATE UNIQUE INDEX models_one_active ON models(active) WHERE active = 1;

      CREATE TABLE eval_runs (
        id         INTEGER PRIMARY KEY,
        bundle     TEXT NOT NULL,
        created_at TEXT NOT NULL,
        config     TEXT NOT NULL,
        summary    TEXT
      );

      CREATE TABLE eval_results (
        run_id     INTEGER NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
        query_id   TEXT NOT NULL,
        method     TEXT NOT NULL,
        variant    TEXT NOT NULL,
        predicted  TEXT,
        correct    INTEGER NOT NULL CHECK (correct IN (0, 1)),
        episode_id INTEGER REFERENCES episodes(id),
        detail     TEXT
      );
      CREATE INDEX eval_results_run ON eval_results(run_id);
    `);
  },
};
