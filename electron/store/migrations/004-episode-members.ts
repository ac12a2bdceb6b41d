// Migration 4: which episodes retrieved a memory. An episode records each step's slice ids inside its
// step records (JSON); finding a memory's episodes by reading every record is a scan of every step of
// every episode. This table holds, per episode and memory, the first step whose slice held the memory
// (where it entered), keyed by memory so that the lookup is one index range. EpisodeStore.save fills it
// for new episodes; the episodes already stored are filled here from their records.
import type { Migration } from './index';

export const episodeMembers: Migration = {
  version: 4,
  name: 'episode-members',
  up(db) {
    db.exec(`
      CREATE TABLE episode_members (
        memory_id  TEXT NOT NULL,
        episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        first_t    INTEGER NOT NULL,
        PRIMARY KEY (memory_id, episode_id)
      ) WITHOUT ROWID;
      -- ON DELETE CASCADE looks up the children of a deleted episode: without this, a scan per episode.
      CREATE INDEX episode_members_episode ON episode_members(episode_id);
      INSERT INTO episode_members (memory_id, episode_id, first_t)
        SELECT j.value, s.episode_id, min(s.t)
        FROM episode_steps s, json_each(s.record, '$.sliceIds') j
        GROUP BY j.value, s.episode_id;
    `);
  },
};
