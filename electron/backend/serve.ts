// `npm run serve`: the workbench in a browser. Prints the address (with its session token) to open.

import { Command } from 'commander';
import { startWebMode } from './web';

const program = new Command()
  .name('serve')
  .description('serve the workbench on 127.0.0.1 (web mode)')
  .option('--port <n>', 'the port (default: a free one)', (v) => Number.parseInt(v, 10))
  .option('--data-dir <dir>', 'where stores and the recent list live (default: $WORKBENCH_DATA_DIR or ~/.config/arbitration-workbench)')
  .option(
    '--allow <dir>',
    'also let the page open stores and import or export bundles in this folder (repeatable; the data folder is always allowed)',
    (dir: string, dirs: string[]) => [...dirs, dir],
    [] as string[],
  )
  .action(async (opts: { port?: number; dataDir?: string; allow: string[] }) => {
    const mode = await startWebMode(opts);
    process.stdout.write(`workbench (web mode) on ${mode.web.url}\n`);
    process.stdout.write(`it may use stores and bundles in: ${mode.grant.folders.join(', ')}\n`);
    const stop = (): void => {
      void mode.close().then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`serve: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
