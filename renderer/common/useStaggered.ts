// Heavy children mounted across animation frames instead of in one task: recharts' first chart costs
// 80-95 ms to mount here, so the Models view's five charts mounted with the view held one frame past 100 ms.
// The caller renders the first `count` items and a same-sized placeholder for the rest: none in the frame
// the view itself mounts in, then `perFrame` more each frame until all are in. A `total` that grows mounts
// the new items the same way; one that shrinks shows its items at once.

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
