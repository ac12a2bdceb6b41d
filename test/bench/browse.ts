// Browsing a large store in the app (issue 11, item 6: "the app opens, browses and filters that store
// without a frame over 100 ms"), measured in Debian's headless Chromium against web mode, started as the
// end-to-end harness does. Part of `npm run bench -- --memories N` (the `scale.browse` figures); runs alone
// on a store file with `npx tsx test/bench/browse.ts /path/to/store.sqlite` (the file is copied first, so
// the original is never opened for writing).
//
// Steps, each measured on its own: open (the store typed into Home's "Open or create a store" and
// submitted, until the store summary shows it), browser (the query browser's first rows, then its table
// scrolled to the end and back), filters (each flag, a tag, and a text search typed key by key), and the
// views that list the store's memories or what is derived from them: the provenance explorer (store-wide;
// it loads whole cascades up to its limit, 2,000 at first), Labels, Labelling functions, Evaluation, Models.
//
// For each step: frames = the intervals between animation frames counted in the page (max_ms, how many
// over 100 ms and over 50 ms), long_tasks = Chromium's 'longtask' entries (main-thread tasks over 50 ms),
// and backend = every backend call made during the step with its time in the service (ms, server side).

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, startWorkbench, type Workbench } from '../e2e/harness';

const log0 = (msg: string): void => void process.stderr.write(`bench(browse): ${msg}\n`);
const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;
/** A frame longer than this is a visible hitch (the bar). */
const BAR_MS = 100;

// ---- In the page (serialised by Playwright; the browser globals they touch are declared for this module).
interface PageElement {
  textContent: string | null;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  getAttribute(name: string): string | null;
  click(): void;
}
interface FrameWindow {
  __bf: { frames: number[]; longTasks: Array<{ start: number; ms: number }>; on: boolean; longTaskSupported: boolean };
  __bfStart(): void;
  __bfStop(): { frames: number[]; longTasks: Array<{ start: number; ms: number }>; longTaskSupported: boolean };
  location: { hash: string };
}
declare const window: FrameWindow;
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
};
declare function requestAnimationFrame(callback: (time: number) => void): number;
declare const PerformanceObserver: {
  new (cb: (list: { getEntries(): Array<{ startTime: number; duration: number }> }) => void): { observe(o: { type: string; buffered?: boolean }): void };
  supportedEntryTypes?: readonly string[];
};

/** Init script: a frame recorder (animation-frame times) and a long-task observer, switched on per step. */
function frameRecorder(): void {
  const state = { frames: [] as number[], longTasks: [] as Array<{ start: number; ms: number }>, on: false, longTaskSupported: false };
  window.__bf = state;
  try {
    if (PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
      new PerformanceObserver((list) => {
        if (!state.on) return;
        for (const e of list.getEntries()) state.longTasks.push({ start: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask' });
      state.longTaskSupported = true;
    }
  } catch {
    state.longTaskSupported = false;
  }
  const tick = (time: number) => {
    if (state.on) state.frames.push(time);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__bfStart = () => {
    state.frames = [];
    state.longTasks = [];
    state.on = true;
  };
  window.__bfStop = () => {
    state.on = false;
    return { frames: state.frames, longTasks: state.longTasks, longTaskSupported: state.longTaskSupported };
  };
}

/** In the page: clicks `button`, then waits until an element `selector` holding `text` is drawn; ms from the click. */
function clickUntil({ button, selector, text, timeoutMs }: { button: string; selector: string; text: string; timeoutMs: number }): Promise<number> {
  const submit = document.querySelector(button);
  if (!submit) return Promise.reject(new Error(`no ${button}`));
  const start = performance.now();
  submit.click();
  return new Promise((resolvePromise, reject) => {
    const poll = () => {
      if (Array.from(document.querySelectorAll(selector)).some((e) => (e.textContent ?? '').includes(text))) resolvePromise(performance.now() - start);
      else if (performance.now() - start > timeoutMs) reject(new Error(`${selector} with "${text}" not drawn within ${timeoutMs} ms`));
      else requestAnimationFrame(poll);
    };
    poll();
  });
}

/** In the page: sets the hash, then waits until `selector` is drawn; ms from the hash change. */
function navigateUntil({ hash, selector, timeoutMs }: { hash: string; selector: string; timeoutMs: number }): Promise<number> {
  const start = performance.now();
  window.location.hash = hash;
  return new Promise((resolvePromise, reject) => {
    const poll = () => {
      if (document.querySelector(selector)) resolvePromise(performance.now() - start);
      else if (performance.now() - start > timeoutMs) reject(new Error(`${selector} not drawn within ${timeoutMs} ms`));
      else requestAnimationFrame(poll);
    };
    poll();
  });
}

/** In the page: scrolls `selector` by `step` px a frame to its end and back to the top; the frames it took. */
function scrollThrough({ selector, step }: { selector: string; step: number }): Promise<{ px: number; frames: number }> {
  const el = document.querySelector(selector);
  if (!el) return Promise.reject(new Error(`no ${selector}`));
  let px = 0;
  let frames = 0;
  let down = true;
  return new Promise((resolvePromise) => {
    const tick = () => {
      frames++;
      const before = el.scrollTop;
      el.scrollTop = before + (down ? step : -step);
      px += Math.abs(el.scrollTop - before);
      if (down && el.scrollTop + el.clientHeight >= el.scrollHeight - 1) down = false;
      else if (!down && el.scrollTop <= 0) return resolvePromise({ px, frames });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
// ---- (end of in-page code)

interface CallTime {
  call: string;
  ms: number;
}

/** Every backend call the service answers, timed (the web server calls service.dispatch for each request). */
function timeCalls(b: Workbench): { take(): CallTime[] } {
  const service = b.service;
  const original = service.dispatch.bind(service);
  let calls: CallTime[] = [];
  service.dispatch = async (name: string, raw: unknown) => {
    const t = performance.now();
    try {
      return await original(name, raw);
    } finally {
      calls.push({ call: name, ms: round(performance.now() - t) });
    }
  };
  return {
    take() {
      const out = calls;
      calls = [];
      return out;
    },
  };
}

function frameFigures(raw: { frames: number[]; longTasks: Array<{ start: number; ms: number }>; longTaskSupported: boolean }) {
  const intervals = raw.frames.slice(1).map((t, i) => t - (raw.frames[i] as number));
  return {
    frames: {
      n: raw.frames.length,
      max_ms: intervals.length ? round(Math.max(...intervals)) : 0,
      over_100ms: intervals.filter((x) => x > BAR_MS).length,
      over_50ms: intervals.filter((x) => x > 50).length,
    },
    long_tasks: raw.longTaskSupported
      ? { n: raw.longTasks.length, max_ms: raw.longTasks.length ? round(Math.max(...raw.longTasks.map((t) => t.ms))) : 0, over_100ms: raw.longTasks.filter((t) => t.ms > BAR_MS).length }
      : 'unsupported',
  };
}

/** Backend calls of a step: each call's time (several of one name: their max and how many). */
function backendFigures(calls: CallTime[]): Record<string, number | { max_ms: number; n: number }> {
  const out: Record<string, number | { max_ms: number; n: number }> = {};
  for (const name of new Set(calls.map((c) => c.call))) {
    const times = calls.filter((c) => c.call === name).map((c) => c.ms);
    out[name] = times.length === 1 ? (times[0] as number) : { max_ms: Math.max(...times), n: times.length };
  }
  return out;
}

export interface BrowseOptions {
  log?: (msg: string) => void;
  /** A folder for the renderer build, the data folder and the browser profile (default: a new temp folder, removed after). */
  dir?: string;
}

/**
 * Opens `storePath` in the app (web mode, headless Chromium) and measures each browsing step. The service
 * opens the file for writing (it migrates and sets WAL): pass a copy when the original must stay untouched.
 */
export async function browseBench(storePath: string, opts: BrowseOptions = {}): Promise<Record<string, unknown>> {
  const log = opts.log ?? log0;
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is missing (apt-get install -y chromium): the browse benchmark needs Debian's Chromium` };
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'cama-bench-browse-'));
  let b: Workbench | null = null;
  try {
    b = await startWorkbench({ dir, version: 'bench', log: (m) => log(m), production: true });
    const bench = b;
    await b.context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await b.context.addInitScript(frameRecorder);
    const calls = timeCalls(b);
    const { page } = b;
    /** Backend requests the page sent (to tell the page's repeated calls from the service's own). */
    let requests = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) requests++;
    });
    const results: Record<string, unknown> = {};

    /** One measured step: frames and long tasks in the page, backend calls in the service. */
    const step = async (name: string, run: () => Promise<Record<string, unknown>>): Promise<void> => {
      log(name);
      calls.take();
      requests = 0;
      await page.evaluate(() => window.__bfStart());
      const t0 = performance.now();
      try {
        const own = await run();
        // Let what the step started (a refetch, a layout) finish inside the measurement.
        await page.waitForTimeout(300);
        const raw = await page.evaluate(() => window.__bfStop());
        results[name] = { ...own, wall_ms: round(performance.now() - t0), ...frameFigures(raw), backend: backendFigures(calls.take()), page_requests: requests };
      } catch (err) {
        await page.evaluate(() => window.__bfStop()).catch(() => undefined);
        log(`${name} failed: ${(err as Error).message}`);
        results[name] = { error: (err as Error).message, backend: backendFigures(calls.take()) };
      }
    };

    await page.goto(b.web.url);
    await page.getByTestId('store-summary').waitFor();
    await page.waitForTimeout(300);

    const name = basename(storePath);
    await step('open', async () => {
      await page.getByTestId('store-path').fill(resolve(storePath));
      // Submitted in the page, so the time runs from the click to the frame where the summary shows the store.
      const openMs = await page.evaluate(clickUntil, {
        button: 'form.row button[type="submit"]',
        selector: '[data-testid="store-summary"] .store-name',
        text: name,
        timeoutMs: 120_000,
      });
      return { open_ms: round(openMs) };
    });
    // What was opened (asked after the step, so this call is not among the step's).
    const opened = (await bench.api('session')).store;
    results.store_counts = opened ? { memories: opened.counts.memories, edges: opened.counts.edges, queries: opened.counts.queries, episodes: opened.counts.episodes } : null;

    await step('browser_first_rows', async () => {
      const ms = await page.evaluate(navigateUntil, { hash: '#/browser', selector: '[data-testid="query-row"]', timeoutMs: 120_000 });
      return { first_rows_ms: round(ms), rows: Number((await page.getByTestId('row-count').textContent())?.match(/[\d,]+/)?.[0]?.replace(/,/g, '') ?? Number.NaN) };
    });

    await step('browser_scroll', async () => {
      const scrolled = await page.evaluate(scrollThrough, { selector: '[data-testid="query-table"]', step: 120 });
      return { scrolled_px: scrolled.px, scroll_frames: scrolled.frames, mounted_rows: await page.getByTestId('query-row').count() };
    });

    await step('filters', async () => {
      const shown: Record<string, string> = {};
      const rowCount = async () => (await page.getByTestId('row-count').textContent())?.trim() ?? '';
      for (const flag of ['filter-false-majority', 'filter-flips', 'filter-insufficient-at-start']) {
        await page.getByTestId(flag).check();
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        shown[flag] = await rowCount();
        await page.getByTestId(flag).uncheck();
      }
      const tags = await page.getByTestId('filter-tag').locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value).filter(Boolean));
      if (tags[0]) {
        await page.getByTestId('filter-tag').selectOption(tags[0]);
        shown[`tag ${tags[0]}`] = await rowCount();
        await page.getByTestId('filter-tag').selectOption('');
      }
      // Typed key by key, as a person does: each key filters the rows again.
      await page.getByTestId('filter-text').pressSequentially('subject', { delay: 30 });
      shown['text "subject"'] = await rowCount();
      await page.getByTestId('filter-text').fill('');
      shown.cleared = await rowCount();
      return { shown };
    });

    await step('provenance_explorer', async () => {
      const ms = await page.evaluate(navigateUntil, { hash: '#/provenance', selector: '[data-testid="provenance-explorer"][data-state="ready"] .react-flow[data-drawn="all"]', timeoutMs: 180_000 });
      const count = page.getByTestId('explorer-node-count');
      return {
        ready_ms: round(ms),
        nodes_drawn: Number(await count.getAttribute('data-value')),
        summary: (await page.locator('.pv-count').textContent())?.trim() ?? '',
        mounted_nodes: await page.locator('.pv-canvas .react-flow__node').count(),
      };
    });

    // The other views, each until its backend calls are answered and nothing says "Loading…".
    for (const [view, hash] of [
      ['labels', '#/labels'],
      ['labelling_functions', '#/labelling'],
      ['evaluation', '#/eval'],
      ['models', '#/models'],
    ] as const) {
      await step(view, async () => {
        const t = performance.now();
        await page.evaluate((h) => void (window.location.hash = h), hash);
        await page.waitForTimeout(200);
        await page.waitForFunction(() => document.querySelectorAll('.loading').length === 0, null, { timeout: 120_000, polling: 'raf' });
        // Charts mounted one a frame (useStaggered) are measured until the last is in.
        await page.waitForFunction(() => document.querySelectorAll('.compare-charts:not([data-mounted="all"])').length === 0, null, { timeout: 60_000, polling: 'raf' });
        return { settled_ms: round(performance.now() - t) };
      });
    }

    // Back to Home: the summary again (a session refresh on a store already open).
    await step('home_again', async () => {
      const ms = await page.evaluate(navigateUntil, { hash: '#/', selector: '[data-testid="store-summary"]', timeoutMs: 60_000 });
      return { summary_ms: round(ms) };
    });

    const over = Object.entries(results).filter(([, r]) => ((r as { frames?: { over_100ms: number } }).frames?.over_100ms ?? 0) > 0);
    return {
      what: `each step's animation-frame intervals in the page (max, count over ${BAR_MS} ms), Chromium long tasks, and its backend calls (ms in the service)`,
      store: storePath,
      renderer: "React's production build (the app as shipped)",
      steps_with_frames_over_100ms: over.map(([k]) => k),
      ...results,
    };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    await b?.close({ checkConsole: false }).catch(() => undefined);
    if (!opts.dir) rmSync(dir, { recursive: true, force: true });
  }
}

// Alone: `npx tsx test/bench/browse.ts STORE.sqlite` copies the store (and its -wal) to a temp folder,
// measures, and prints one JSON object.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const source = process.argv[2];
  if (!source || !existsSync(source)) {
    process.stderr.write('usage: npx tsx test/bench/browse.ts STORE.sqlite\n');
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cama-bench-browse-'));
  try {
    const copy = join(dir, 'data', basename(source));
    log0(`copying ${source}`);
    mkdirSync(join(dir, 'data'), { recursive: true });
    copyFileSync(source, copy);
    for (const side of ['-wal', '-shm']) if (existsSync(source + side)) copyFileSync(source + side, copy + side);
    process.stdout.write(`${JSON.stringify(await browseBench(copy, { dir }), null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
