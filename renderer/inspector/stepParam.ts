// The step in the address, after the hash route (`#/episode/7?t=2`): read once on open, kept up to
// date with replaceState (no new history entry), and dropped when the inspector closes. Keeping it
// inside the hash matters: a change to the page's own query string would make Back change more than
// the hash, and the browser would then fire no hashchange for the router to follow.

function hashSearch(): URLSearchParams {
  const q = window.location.hash.indexOf('?');
  return new URLSearchParams(q >= 0 ? window.location.hash.slice(q + 1) : '');
}

export function readStepParam(): number | null {
  const raw = hashSearch().get('t');
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

export function writeStepParam(t: number | null): void {
  const url = new URL(window.location.href);
  const q = url.hash.indexOf('?');
  const route = q >= 0 ? url.hash.slice(0, q) : url.hash;
  const params = new URLSearchParams(q >= 0 ? url.hash.slice(q + 1) : '');
  if (t === null) params.delete('t');
  else params.set('t', String(t));
  const search = params.toString();
  url.hash = search ? `${route}?${search}` : route;
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
}

/** The episode id from `#/episode/<id>…`, for when the route parameter carried a `?t=` along. */
export function episodeIdFromHash(): number | null {
  const m = /^#\/?episode\/(\d+)/.exec(window.location.hash);
  return m ? Number(m[1]) : null;
}
