// Every migration, in order. Add a new numbered file and append it here; never edit a shipped one.
import type Database from 'better-sqlite3';
import { initial } from './001-initial';
import { claimsNoCase } from './002-claims-nocase';
import { evalRunOwner } from './003-eval-run-owner';
import { episodeMembers } from './004-episode-members';
import { llmCache } from './005-llm-cache';
import { labellingFunctions } from './006-labelling-functions';
import { postings } from './007-postings';

export interface Migration {
  /** The user_version the database has once this migration ran; 1, 2, 3, ... without gaps. */
  version: number;
  name: string;
  up(db: Database.Database): void;
}

export const migrations: readonly Migration[] = [initial, claimsNoCase, evalRunOwner, episodeMembers, llmCache, labellingFunctions, postings];
