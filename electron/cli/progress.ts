// A progress bar on stderr (stdout stays clean for --json), silent when stderr is not a terminal
// unless forced, so logs and CI output are not flooded with redraws.

import cliProgress from 'cli-progress';
import { cliIo } from './io';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export function progressBar(label: string, opts: { enabled?: boolean } = {}): Progress {
  const enabled = opts.enabled ?? cliIo().errIsTTY;
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

/**
 * A bar for long jobs with named phases and a payload of figures (loss, reward, ...): redrawn on a
 * terminal, silent otherwise (callers then print one line per epoch with `line`).
 */
export interface PhasedBar<P extends Record<string, string>> {
  readonly tty: boolean;
  readonly payload: P & { phase: string };
  show(phase: string, done: number, total: number): void;
  /** A line of its own on stderr (the bar is stopped first so the two do not interleave). */
  line(text: string): void;
  stop(): void;
}

export function phasedBar<P extends Record<string, string>>(format: string, payload: P): PhasedBar<P> {
  const io = cliIo();
  const tty = io.errIsTTY;
  const bar = new cliProgress.SingleBar({ format, stream: process.stderr, hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic);
  const state = { ...payload, phase: '' };
  let started = false;
  return {
    tty,
    payload: state,
    show(phase, done, total) {
      state.phase = phase;
      if (!tty) return;
      if (!started) {
        bar.start(total, done, state);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done, state);
    },
    line(text) {
      if (started) bar.stop();
      started = false;
      io.err(`${text}\n`);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
