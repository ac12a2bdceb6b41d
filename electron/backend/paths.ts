// Where the workbench keeps its files: the user's data folder (stores, the recent list) and the
// read-only resources shipped with the app (the demo bundle, default configs).

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import type { RecentStore } from '../../shared/views';

/** $WORKBENCH_DATA_DIR, else $XDG_CONFIG_HOME/arbitration-workbench, else ~/.config/arbitration-workbench. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WORKBENCH_DATA_DIR) return resolve(env.WORKBENCH_DATA_DIR);
  return join(env.XDG_CONFIG_HOME ? resolve(env.XDG_CONFIG_HOME) : join(homedir(), '.config'), 'arbitration-workbench');
}

const RecentSchema = z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.string() }));
const MAX_RECENT = 10;

/** The recent-stores list, kept as JSON in the data folder and replaced atomically. */
export class RecentStores {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'recent.json');
  }

  list(): RecentStore[] {
    try {
      return RecentSchema.parse(JSON.parse(readFileSync(this.file, 'utf8')));
    } catch {
      return []; // absent or unreadable: start a new list rather than refuse to start
    }
  }

  add(path: string): RecentStore[] {
    const entry: RecentStore = { path, name: basename(path), openedAt: new Date().toISOString() };
    const next = [entry, ...this.list().filter((r) => r.path !== path)].slice(0, MAX_RECENT);
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
    renameSync(tmp, this.file);
    return next;
  }
}
