// Heavy children mounted across animation frames instead of in one task: a chart library's first mount
// costs 20-50 ms a chart here (the first one most), so five charts mounted with their view held one frame
// past 100 ms. The caller renders the first `count` items and a same-sized placeholder for the rest: none
// in the frame the view itself mounts in, then `perFrame` more each frame until all are in. A change of
// `total` goes on from what is already mounted.

import { useEffect, useState } from 'react';

/** How many of `total` items to mount now: none at first, `perFrame` more each animation frame. */
export function useStaggered(total: number, perFrame = 1): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (count >= total) return;
    const id = requestAnimationFrame(() => setCount((c) => Math.min(total, c + perFrame)));
    return () => cancelAnimationFrame(id);
  }, [count, total, perFrame]);
  return Math.min(count, total);
}
