// `cama import` and `cama export`: move bundles in and out of a store file.

import { resolve } from 'node:path';
import { Command } from 'commander';
import { exportBundle } from '../../bundle/export';
import { importBundle } from '../../bundle/import';
import { Store } from '../../store/store';
import { type ReadLimitFlags, readLimitsOf, withReadLimitOptions } from '../options';
import { progressBar } from '../progress';
import { openStoreForImport } from './open';
import { cliIo } from '../io';

export function importCommand(): Command {
  const command = new Command('import')
    .description('import a bundle into a store file (one transaction: a bad bundle changes nothing)')
    .requiredOption('--store <file>', 'the SQLite store (created if missing)')
    .requiredOption('--bundle <dir>', 'the bundle folder');
  return withReadLimitOptions(command).action((opts: { store: string; bundle: string } & ReadLimitFlags) => {
    const store = openStoreForImport(resolve(opts.store));
    const bar = progressBar('import');
    try {
      const summary = importBundle(store, resolve(opts.bundle), { onProgress: (d, t) => bar.update(d, t), limits: readLimitsOf(opts) });
      bar.stop();
      store.close();
      cliIo().out(`imported into ${opts.store}: ${JSON.stringify(summary)}\n`);
    } catch (err) {
      store.discardIfNew(); // a refused bundle leaves no empty store file behind
      throw err;
    } finally {
      bar.stop();
    }
  });
}

export function exportCommand(): Command {
  return new Command('export')
    .description('export a store as a bundle (written atomically)')
    .requiredOption('--store <file>', 'the SQLite store')
    .requiredOption('--out <dir>', 'the bundle folder to write: new or empty (a folder holding anything else is refused)')
    .option('--replace', 'replace a bundle already in --out, as a whole')
    .action((opts: { store: string; out: string; replace?: boolean }) => {
      const store = Store.open(resolve(opts.store), { create: false }); // a mistyped path exports nothing, and makes no file
      try {
        const { replaced } = exportBundle(store, resolve(opts.out), { replace: opts.replace === true });
        cliIo().out(`exported ${opts.store} to ${opts.out}${replaced ? ' (the bundle there was replaced)' : ''}\n`);
      } finally {
        store.close();
      }
    });
}
