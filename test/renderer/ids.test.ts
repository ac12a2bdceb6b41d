// Query ids in the Queries browser: short, and never two rows with the same short form.

import { describe, expect, it } from 'vitest';
import { distinctIdLabels, middleEllipsis } from '../../renderer/common/ids';

describe('middleEllipsis', () => {
  it('keeps a short id whole and cuts a long one in the middle, keeping its tail', () => {
    expect(middleEllipsis('q16', 12)).toBe('q16');
    expect(middleEllipsis('q-mq-7412093-situated', 12)).toBe('q-m…situated');
    expect([...middleEllipsis('q-mq-7412093-situated', 12)]).toHaveLength(12);
  });

  it('refuses a width too small to hold head, ellipsis and tail', () => {
    expect(() => middleEllipsis('abcdef', 2)).toThrow(/at least 3, got 2/);
  });
});

describe('distinctIdLabels', () => {
  it('gives ids that share a long prefix forms that differ (cut at the end they all read "q-mq-74…")', () => {
    const ids = ['q-mq-7401331-a', 'q-mq-7402208-a', 'q-mq-7419920-a', 'q-mq-7423311-b'];
    const labels = distinctIdLabels(ids);
    expect(new Set(labels.values()).size).toBe(ids.length);
    expect(labels.get('q-mq-7423311-b')).toBe('q-m…423311-b');
    for (const l of labels.values()) expect([...l].length).toBeLessThanOrEqual(12);
  });

  it('lengthens only the forms that clash, up to the whole id', () => {
    // Same head and same tail: only the middle tells these apart.
    const ids = ['q-mq-74-AAA-000000-x', 'q-mq-74-BBB-000000-x', 'q7'];
    const labels = distinctIdLabels(ids, 10);
    expect(labels.get('q7')).toBe('q7');
    expect(new Set(labels.values()).size).toBe(3);
    expect(labels.get('q-mq-74-AAA-000000-x')).not.toBe(labels.get('q-mq-74-BBB-000000-x'));
  });
});
