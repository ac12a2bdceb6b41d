// UI benchmarks, measured in Debian's headless Chromium against web mode (started as the end-to-end
// harness does: the renderer built with Vite into a temp folder, React's production build as the app
// ships, a WorkbenchService over a fresh data folder, the web server on loopback). Part of
// `npm run bench`; runs alone with `npx tsx test/bench/ui.ts`.
//
//   inspector_first_render: from navigation to `#/episode/<id>` until the heatmap rows and every node of
//     the provenance graph are drawn (timed in the page, at the first animation frame that has them all).
//     cold = a fresh document (new JS heap, new ELK worker; HTTP cache allowed); warm = from the query
//     browser to the episode in the same document.
//   provenance_pan: the store-wide explorer at 5,000 memories of a simulated store: fetch + layout time,
//     then ~3 s of continuous mouse-drag panning while the page counts animation frames. Once at the
//     explorer's first view (the largest cascades at a readable zoom), once with all 5,000 nodes in view.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { importBundle } from '../../electron/bundle/import';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import { CHROMIUM, CHROMIUM_FLAGS, startWorkbench, type Workbench } from '../e2e/harness';

const EPISODES = 10;
const PAN_MS = 3000;
const PAN_LIMIT = 5000;
/** Pixels per mouse move while dragging; Chromium takes about one move per frame, so ~16 px ≈ 1,000 px/s. */
const PAN_STEP_PX = 16;
const ZOOMED_OUT = 0.3;

const log = (msg: string): void => void process.stderr.write(`bench(ui): ${msg}\n`);
const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

function quantile(samples: readonly number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))] as number;
}

// ---- In the page. This file is compiled for Node; the functions below are serialised by Playwright and
// run in Chromium, so the few browser globals they touch are declared here, for this module only.
interface PageElement {
  getAttribute(name: string): string | null;
  style: { visibility: string; transform: string };
}
interface BenchWindow {
  /** Inspector: the first frame time at which each "heatmap rows | graph nodes" signature was on screen. */
  __drawn: Record<string, number>;
  __drawnAt(signature: string): Promise<number>;
  __frames: number[];
  __framesOn: boolean;
  __limitChangedAt: number;
  location: { hash: string };
}
declare const window: BenchWindow;
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement> & ArrayLike<PageElement>;
};
declare function requestAnimationFrame(callback: (time: number) => void): number;

/**
 * Init script (every document): records, per animation frame, what the inspector has drawn, and
 * offers __drawnAt(signature), which waits until a signature has been drawn and gives its frame time.
 */
function watchInspector(): void {
  window.__drawn = {};
  const tick = (time: number) => {
    const rows = Array.from(document.querySelectorAll('[data-testid="heatmap"] tr.hm-row'), (e) => e.getAttribute('data-memory-id') ?? '');
    const nodes = Array.from(document.querySelectorAll('[data-testid="provenance-graph"] .react-flow__node'))
      .filter((e) => e.style.visibility !== 'hidden')
      .map((e) => e.getAttribute('data-id') ?? '')
      .sort();
    const signature = `${rows.join(',')}|${nodes.join(',')}`;
    if (!(signature in window.__drawn)) window.__drawn[signature] = time;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__drawnAt = (signature) =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      const poll = () => {
        const at = window.__drawn[signature];
        if (at !== undefined) resolve(at);
        else if (performance.now() - start > 30_000) reject(new Error('not drawn within 30 s'));
        else requestAnimationFrame(poll);
      };
      poll();
    });
}

/** In the page, after a full load: when the signature was first drawn, in ms since navigation started. */
function coldNavigation(signature: string): Promise<number> {
  return window.__drawnAt(signature);
}

/** In the page: from a hash change to the episode until it is drawn (warm: the app is already loaded). */
function warmNavigation({ hash, signature }: { hash: string; signature: string }): Promise<number> {
  window.__drawn = {};
  const start = performance.now();
  window.location.hash = hash;
  return window.__drawnAt(signature).then((at) => at - start);
}

function startFrames(): void {
  window.__frames = [];
  window.__framesOn = true;
  const tick = (time: number) => {
    window.__frames.push(time);
    if (window.__framesOn) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

function stopFrames(): number[] {
  window.__framesOn = false;
  return window.__frames;
}

/** The explorer's zoom, read from React Flow's viewport transform. */
function explorerZoom(): number {
  const transform = document.querySelector('.pv-canvas .react-flow__viewport')?.style.transform ?? '';
  const m = /scale\(([\d.e-]+)\)/.exec(transform);
  return m ? Number(m[1]) : Number.NaN;
}

/** Resolves at the next animation frame. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}
// ---- (end of in-page code)

type Bench = Workbench;

async function startBench(dir: string): Promise<Bench> {
  const bench = await startWorkbench({ dir, version: 'bench', log, production: true });
  // tsx compiles this file with esbuild's keepNames, which wraps nested functions in __name(); the page
  // functions above are serialised with those calls in them, so the page gets a do-nothing __name.
  await bench.context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await bench.context.addInitScript(watchInspector);
  return bench;
}

/** What step 0 of an episode draws: its slice in heatmap order, and the same ids sorted (graph nodes). */
function signatureOf(sliceIds: readonly string[]): string {
  return `${sliceIds.join(',')}|${[...sliceIds].sort().join(',')}`;
}

async function inspectorFirstRender(b: Bench): Promise<Record<string, unknown>> {
  const rows = (await b.api('queries')).filter((r) => r.episodeId !== null);
  const step = Math.max(1, Math.floor(rows.length / EPISODES));
  const picked = rows.filter((_, i) => i % step === 0).slice(0, EPISODES);
  const episodes = await Promise.all(
    picked.map(async (r) => {
      const view = await b.api('episode', { id: r.episodeId });
      const slice = view.episode.steps[0]?.sliceIds ?? [];
      return { id: r.episodeId as number, nodes: slice.length, signature: signatureOf(slice) };
    }),
  );
  log(`inspector: ${episodes.length} episodes, cold`);
  const cold: number[] = [];
  for (const e of episodes) {
    await b.page.goto('about:blank');
    await b.page.goto(`${b.web.url}#/episode/${e.id}`);
    cold.push(await b.page.evaluate(coldNavigation, e.signature));
  }
  log('inspector: warm');
  const warm: number[] = [];
  for (const e of episodes) {
    await b.page.evaluate(() => void (window.location.hash = '#/browser'));
    await b.page.getByTestId('query-row').first().waitFor();
    warm.push(await b.page.evaluate(warmNavigation, { hash: `#/episode/${e.id}`, signature: e.signature }));
  }
  const stats = (xs: number[]) => ({ p50: round(quantile(xs, 0.5)), p90: round(quantile(xs, 0.9)), max: round(Math.max(...xs)), n: xs.length });
  return {
    what: 'ms from navigation to the frame with every heatmap row and provenance-graph node of step 0 drawn',
    slice_nodes: { min: Math.min(...episodes.map((e) => e.nodes)), max: Math.max(...episodes.map((e) => e.nodes)) },
    cold_ms: stats(cold),
    warm_ms: stats(warm),
  };
}

/** A bench store whose largest cascades hold at least PAN_LIMIT memories; opened in the service. */
async function openPanStore(b: Bench, dir: string): Promise<void> {
  log('simulating a store with >= 5,000 memories in provenance cascades');
  const bundle = join(dir, 'pan-bundle');
  await simulate(simulatorConfig({ name: 'bench-provenance', seed: 11, world: { subjects: 400 }, queries: { count: 40 }, evidence: { provenanceRate: 1 } }), bundle);
  const path = join(b.service.dataDir, 'bench-provenance.sqlite');
  const store = Store.open(path);
  try {
    importBundle(store, bundle);
  } finally {
    store.close();
  }
  await b.service.open(path);
}

/**
 * Drags the pane in small steps for `ms`. 'onwards': stroke after stroke right-to-left and a little
 * upwards, so new cascades keep coming into view. 'to-and-fro': one long drag back and forth over
 * `span` px, so a drawing that fits the canvas stays in view.
 */
async function pan(page: Page, ms: number, how: 'onwards' | 'to-and-fro', span = 240): Promise<{ moves: number; strokes: number; px: number }> {
  const box = await page.locator('.pv-canvas').boundingBox();
  if (!box) throw new Error('no explorer canvas');
  const end = Date.now() + ms;
  let moves = 0;
  let strokes = 0;
  let px = 0;
  if (how === 'to-and-fro') {
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    let x = cx;
    let direction = -1;
    while (Date.now() < end) {
      if (Math.abs(x + direction * PAN_STEP_PX - cx) > span / 2) {
        direction = -direction;
        strokes++;
      }
      x += direction * PAN_STEP_PX;
      await page.mouse.move(x, cy);
      moves++;
      px += PAN_STEP_PX;
    }
    await page.mouse.up();
    return { moves, strokes: strokes + 1, px };
  }
  const left = box.x + 60;
  const right = box.x + box.width - 60;
  const y0 = box.y + box.height * 0.75;
  while (Date.now() < end) {
    await page.mouse.move(right, y0);
    await page.mouse.down();
    let x = right;
    while (x > left && Date.now() < end) {
      x -= PAN_STEP_PX;
      await page.mouse.move(x, y0 - (right - x) * 0.2);
      moves++;
      px += PAN_STEP_PX;
    }
    await page.mouse.up();
    strokes++;
  }
  return { moves, strokes, px };
}

async function measurePan(page: Page, how: 'onwards' | 'to-and-fro'): Promise<Record<string, unknown>> {
  await page.evaluate(startFrames);
  const t0 = Date.now();
  const drag = await pan(page, PAN_MS, how);
  const seconds = (Date.now() - t0) / 1000;
  const frames = await page.evaluate(stopFrames);
  const intervals = frames.slice(1).map((t, i) => t - (frames[i] as number));
  const span = ((frames.at(-1) ?? 0) - (frames[0] ?? 0)) / 1000;
  const mounted = await page.locator('.pv-canvas .react-flow__node').count();
  const mountedEdges = await page.locator('.pv-canvas .react-flow__edge').count();
  return {
    drag: how,
    seconds: round(seconds, 2),
    frames: frames.length,
    mean_fps: round((frames.length - 1) / Math.max(span, 1e-9)),
    frame_ms_p50: round(quantile(intervals, 0.5)),
    frame_ms_p95: round(quantile(intervals, 0.95)),
    frame_ms_max: round(Math.max(...intervals)),
    frames_over_50ms: intervals.filter((x) => x > 50).length,
    mounted_nodes_at_end: mounted,
    mounted_edges_at_end: mountedEdges,
    drag_steps: drag.moves,
    drag_strokes: drag.strokes,
    drag_px: drag.px,
  };
}

async function provenancePan(b: Bench, dir: string): Promise<Record<string, unknown>> {
  await openPanStore(b, dir);
  const expected = await b.api('provenanceOverview', { limit: PAN_LIMIT });
  log(`explorer: ${expected.nodes.length} memories, ${expected.edges.length} edges`);
  const { page } = b;
  await page.goto('about:blank');
  await page.goto(`${b.web.url}#/provenance`);
  const explorer = page.getByTestId('provenance-explorer');
  await explorer.waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="provenance-explorer"][data-state="ready"]').length > 0, null, { timeout: 60_000 });
  // From choosing 5,000 to the frame where the laid-out graph is drawn (fetch, layout in the worker, render).
  await page.evaluate(() => {
    window.__limitChangedAt = performance.now();
  });
  await page.getByTestId('explorer-limit').selectOption(String(PAN_LIMIT));
  const selectToDrawn = await page.evaluate(
    (n: number) =>
      new Promise<number>((resolve) => {
        const poll = () => {
          const done = Array.from(document.querySelectorAll('[data-testid="provenance-explorer"][data-state="ready"] [data-testid="explorer-node-count"]')).some(
            (e) => e.getAttribute('data-value') === String(n),
          );
          if (done) resolve(performance.now() - window.__limitChangedAt);
          else requestAnimationFrame(poll);
        };
        poll();
      }),
    expected.nodes.length,
  );
  const layoutMs = Number(await explorer.getAttribute('data-layout-ms'));
  const computeMs = Number(await explorer.getAttribute('data-layout-compute-ms'));
  const drawn = Number(await page.getByTestId('explorer-node-count').getAttribute('data-value'));
  await page.waitForTimeout(500); // let the first view settle (an idle pause, not a wait for an event)
  log('explorer: panning at the first view');
  const firstView = await measurePan(page, 'onwards');
  log(`explorer: zooming out to ${ZOOMED_OUT} (nodes as blocks of colour), then panning`);
  const canvas = await page.locator('.pv-canvas').boundingBox();
  if (!canvas) throw new Error('no explorer canvas');
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  for (let i = 0; i < 40 && (await page.evaluate(explorerZoom)) > ZOOMED_OUT; i++) {
    await page.mouse.wheel(0, 100);
    await page.evaluate(nextFrame);
  }
  const zoomedOutAt = round(await page.evaluate(explorerZoom), 3);
  await page.waitForTimeout(300); // the last wheel step's render settles
  const zoomedOut = await measurePan(page, 'onwards');
  log('explorer: fitting all 5,000 nodes in view, then panning');
  const fitStart = Date.now();
  await page.locator('.pv-canvas .react-flow__controls-fitview').click();
  // All in view, the blocks are painted on one canvas (FarCanvas.tsx), not mounted as nodes.
  await page.waitForFunction((n: number) => document.querySelector('[data-testid="explorer-far-canvas"]')?.getAttribute('data-drawn') === String(n), expected.nodes.length, { timeout: 60_000 });
  const fitMs = Date.now() - fitStart;
  const allInView = await measurePan(page, 'to-and-fro');
  const allInViewZoom = round(await page.evaluate(explorerZoom), 3);
  // Back in from there, wheel step by wheel step, past the zoom where React Flow holds nodes again (the
  // frames of the steps that mount them).
  log(`explorer: zooming in from all in view to ${ZOOMED_OUT}`);
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.evaluate(startFrames);
  let wheelSteps = 0;
  for (; wheelSteps < 40 && (await page.evaluate(explorerZoom)) < ZOOMED_OUT; wheelSteps++) {
    await page.mouse.wheel(0, -100);
    await page.evaluate(nextFrame);
  }
  await page.waitForTimeout(300); // the last wheel step's render settles
  const zoomInFrames = await page.evaluate(stopFrames);
  const zoomInIntervals = zoomInFrames.slice(1).map((t, i) => t - (zoomInFrames[i] as number));
  const zoomIn = {
    to_zoom: round(await page.evaluate(explorerZoom), 3),
    wheel_steps: wheelSteps,
    frame_ms_max: round(Math.max(...zoomInIntervals)),
    frames_over_50ms: zoomInIntervals.filter((x) => x > 50).length,
    mounted_nodes_at_end: await page.locator('.pv-canvas .react-flow__node').count(),
  };
  const drawerOpened = (await page.getByTestId('explorer-drawer').count()) > 0;
  return {
    nodes: drawn,
    edges: expected.edges.length,
    cascades: expected.components,
    layout_ms: round(layoutMs),
    layout_compute_ms_in_worker: round(computeMs),
    select_to_drawn_ms: round(selectToDrawn),
    pan_first_view: { zoom: 0.8, ...firstView },
    pan_zoomed_out: { zoom: zoomedOutAt, ...zoomedOut },
    fit_all_mount_ms: fitMs,
    pan_all_in_view: { zoom: allInViewZoom, ...allInView },
    zoom_in_from_all: zoomIn,
    ...(drawerOpened ? { warning: 'a drag ended as a click and opened the drawer' } : {}),
  };
}

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

async function attempt(name: string, run: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  try {
    return await run();
  } catch (err) {
    log(`${name} failed: ${(err as Error).message}`);
    return { error: (err as Error).message };
  }
}

export async function uiBench(): Promise<Record<string, unknown>> {
  if (!existsSync(CHROMIUM)) {
    const skipped = `${CHROMIUM} is missing (apt-get install -y chromium): the UI benchmarks need Debian's Chromium`;
    return { inspector_first_render: { skipped }, provenance_pan: { skipped } };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cama-bench-ui-'));

  let bench: Bench | null = null;
  try {
    bench = await startBench(dir);
    const b = bench;
    const results: Record<string, unknown> = { chromium: chromiumVersion(), viewport: '1440x900', flags: CHROMIUM_FLAGS.join(' ') };
    results.inspector_first_render = await attempt('inspector_first_render', () => inspectorFirstRender(b));
    results.provenance_pan = await attempt('provenance_pan', () => provenancePan(b, dir));
    return results;
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    await bench?.close({ checkConsole: false }).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

// Alone: `npx tsx test/bench/ui.ts` prints these results as one JSON object.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await uiBench(), null, 2)}\n`);
}
