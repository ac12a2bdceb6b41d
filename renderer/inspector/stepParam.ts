// The step in the address, after the hash route (`#/episode/7?t=2`): read when the inspector opens, kept
// up to date with replaceState (no new history entry), and dropped when the inspector closes. Keeping it
// inside the hash matters: a change to the page's own query string would make Back change more than
// the hash, and the browser would then fire no hashchange for the router to follow.

import { useSyncExternalStore } from 'react';

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

/**
 * The last navigation that named a step: a hashchange whose address carries `?t=`, and the step it named.
 * The inspector keeps its own step in the address with replaceState, which fires no hashchange, so each
 * of these is a link followed, an address typed or Back/Forward. The route keys the inspector on `key`
 * (useStepLink), so a link to another step of the episode already open opens that step rather than
 * being ignored; the new inspector starts at `t`, captured here when the event fires. Reading the address
 * later, when React renders, would race the open inspector: a write of its own step still pending from
 * its last commit would have replaced the linked step by then. Registered when this module loads, before
 * any component subscribes, so the link has moved by the time the router re-renders for the same event.
 */
export interface StepLink {
  key: number;
  t: number | null;
}
let stepLink: StepLink = { key: 0, t: null };
const stepLinkListeners = new Set<() => void>();
if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', () => {
    const t = readStepParam();
    if (t === null) return;
    stepLink = { key: stepLink.key + 1, t };
    for (const l of stepLinkListeners) l();
  });
}

function subscribeStepLinks(listener: () => void): () => void {
  stepLinkListeners.add(listener);
  return () => stepLinkListeners.delete(listener);
}

/** The inspector route's key and the step a followed link named (see above); `t` is null before any link. */
export function useStepLink(): StepLink {
  return useSyncExternalStore(subscribeStepLinks, () => stepLink);
}
