// A progress bar on stderr (stdout stays clean for --json), silent when stderr is not a terminal
// unless forced, so logs and CI output are not flooded with redraws.

import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export function progressBar(label: string, opts: { enabled?: boolean } = {}): Progress {
  const enabled = opts.enabled ?? process.stderr.isTTY === true;
  if (!enabled) return { update: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta_formatted}`, stream: process.stderr, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
