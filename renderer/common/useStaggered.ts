// Heavy children mounted across animation frames instead of in one task: a chart library's first mount
// costs 20-30 ms a chart here, so five charts mounted together hold one frame past 100 ms. The caller
// renders the first `count` items and a same-sized placeholder for the rest; one more item mounts each
// frame until all are in. A change of `total` starts over from what is already mounted.

import { useEffect, useState } from 'react';

/** How many of `total` items to mount now: `perFrame` at first, `perFrame` more each animation frame. */
export function useStaggered(total: number, perFrame = 1): number {
  const [count, setCount] = useState(() => Math.min(total, perFrame));
  useEffect(() => {
    if (count >= total) return;
    const id = requestAnimationFrame(() => setCount((c) => Math.min(total, c + perFrame)));
    return () => cancelAnimationFrame(id);
  }, [count, total, perFrame]);
  return Math.min(count, total);
}
