// Electron's IPC trusts only frames showing the workbench's own page.

import { describe, expect, it } from 'vitest';
import { isAppUrl } from '../../electron/backend/origin';

describe('the Electron page check', () => {
  it('accepts the workbench page, whatever path or hash it shows', () => {
    expect(isAppUrl('app://workbench/index.html')).toBe(true);
    expect(isAppUrl('app://workbench/index.html#/episode/7?t=2')).toBe(true);
    // Node gives app:// URLs the origin "null": comparing origins would refuse every call.
    expect(new URL('app://workbench/index.html').origin).toBe('null');
  });

  it('refuses every other page', () => {
    for (const url of ['app://evil/index.html', 'file:///work/index.html', 'http://workbench/', 'https://example.com/', 'about:blank', '', 'not a url']) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });
});
