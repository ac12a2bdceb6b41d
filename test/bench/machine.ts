// How fast this machine is while the bench runs: one fixed piece of work, in this thread, whose time
// depends on nothing the project changes (a 32-bit FNV-1a over the same 200,000 generated words, then a
// sort of their hashes). This 2-core machine's speed moves from day to day by as much as 1.5× (README,
// "Benchmarks"); two runs' figures compare only beside their `machine` entries.

import { performance } from 'node:perf_hooks';

function work(): number {
  const hashes = new Uint32Array(200_000);
  for (let i = 0; i < hashes.length; i++) {
    const word = `w${(i * 2654435761) % 1_000_003}x${i % 97}`;
    let h = 0x811c9dc5;
    for (let k = 0; k < word.length; k++) {
      h ^= word.charCodeAt(k);
      h = Math.imul(h, 0x01000193);
    }
    hashes[i] = h >>> 0;
  }
  hashes.sort();
  return hashes[hashes.length >> 1] as number;
}

/** The fixed work's time in ms: the median of five runs after one to warm up. */
export function machineMs(): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    work();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return Math.round((times[2] as number) * 10) / 10;
}
