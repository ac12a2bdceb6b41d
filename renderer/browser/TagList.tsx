// A query's tags on one line of the table: as many whole tags as the cell holds, then "+N" for the rest.
// Every tag stays rendered (the ones that do not fit out of the flow and invisible), so a wider column
// shows more of them again without a second render to measure them.

import { useLayoutEffect, useRef, useState } from 'react';

const GAP = 3; // px between tags: `.qt .cell.tags { gap }` in browser.css

/**
 * How many of the tags, in order, fit in `room` pixels, keeping room for the "+N" chip after them when
 * some do not fit. `widths` are the tags' widths, `chip` the chip's.
 */
function tagsThatFit(room: number, widths: readonly number[], chip: number): number {
  let used = 0;
  for (let k = 0; k < widths.length; k++) {
    const next = used + (k > 0 ? GAP : 0) + (widths[k] ?? 0);
    const chipAfter = k + 1 < widths.length ? GAP + chip : 0;
    if (next + chipAfter > room) return k;
    used = next;
  }
  return widths.length;
}

export function TagList({ tags }: { tags: readonly string[] }) {
  const cell = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(tags.length);
  const hidden = tags.length - shown;

  useLayoutEffect(() => {
    const el = cell.current;
    if (!el) return;
    const fit = () => {
      const style = getComputedStyle(el);
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const widths = [...el.querySelectorAll<HTMLElement>('[data-tag]')].map((t) => t.offsetWidth);
      const chip = el.querySelector<HTMLElement>('[data-tag-more]')?.offsetWidth ?? 0;
      setShown(tagsThatFit(room, widths, chip));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [tags]);

  return (
    <div ref={cell} className="cell tags" title={tags.join(', ')} data-testid="query-tags" data-tags-hidden={hidden}>
      {tags.map((t, i) => (
        <span key={t} className={`tag${i < shown ? '' : ' is-over'}`} data-tag>
          {t}
        </span>
      ))}
      {/* Always rendered, so its width is known before it is needed; out of sight while every tag fits. */}
      <span className={`tag more${hidden > 0 ? '' : ' is-over'}`} data-tag-more aria-label={`${hidden} more`}>
        +{Math.max(1, hidden)}
      </span>
    </div>
  );
}
