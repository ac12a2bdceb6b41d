// The folder boundaries the README's "Layout" describes, checked on every import statement in the tree.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Every module specifier a file imports (static, dynamic and re-exports). */
function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gms, // import x from '...'; export { y } from '...'
    /^\s*import\s+['"]([^'"]+)['"]/gm, // import '...'
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, // import('...')
  ];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1] as string));
}

/** The repo folder an import lands in ('' for packages). */
function target(file: string, spec: string): string {
  if (!spec.startsWith('.')) return '';
  return relative(root, resolve(root, file, '..', spec)).split('/')[0] as string;
}

/** Whether an import lands in one of `folders` (repo paths such as 'electron/model'). */
function landsIn(file: string, spec: string, folders: readonly string[]): boolean {
  if (!spec.startsWith('.')) return false;
  const path = `${relative(root, resolve(root, file, '..', spec))}/`;
  return folders.some((d) => path.startsWith(`${d}/`));
}

describe('architecture', () => {
  it("only electron/main.ts and electron/preload.ts import 'electron' (everything else runs under plain Node)", () => {
    const offenders = [...sources('electron'), ...sources('shared'), ...sources('renderer'), ...sources('test')].filter(
      (f) => !['electron/main.ts', 'electron/preload.ts'].includes(f) && imports(f).some((s) => s === 'electron' || s.startsWith('electron/')),
    );
    expect(offenders).toEqual([]);
  });

  it('shared/ imports nothing outside shared/ but zod (no Node, no DOM, no app code)', () => {
    const offenders = sources('shared').flatMap((f) =>
      imports(f)
        .filter((s) => (s.startsWith('.') ? target(f, s) !== 'shared' : s !== 'zod'))
        .map((s) => `${f} -> ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the renderer never imports from electron/ or Node built-ins', () => {
    const offenders = sources('renderer').flatMap((f) =>
      imports(f)
        .filter((s) => target(f, s) === 'electron' || s.startsWith('node:'))
        .map((s) => `${f} -> ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('renderer/app/ sits above the views: no view imports it back, and common/ imports no view', () => {
    const views = readdirSync(join(root, 'renderer'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !['app', 'api', 'common'].includes(e.name))
      .map((e) => `renderer/${e.name}`);
    const below = [...views, 'renderer/common', 'renderer/api'];
    const intoApp = sources('renderer')
      .filter((f) => below.some((d) => f.startsWith(`${d}/`)))
      .flatMap((f) => imports(f).filter((s) => landsIn(f, s, ['renderer/app'])).map((s) => `${f} -> ${s}`));
    const commonIntoViews = sources('renderer/common').flatMap((f) => imports(f).filter((s) => landsIn(f, s, views)).map((s) => `${f} -> ${s}`));
    expect(views).toContain('renderer/inspector');
    expect([...intoApp, ...commonIntoViews]).toEqual([]);
  });

  it('inspector/ and labels/ do not import each other (shared pair-labelling pieces live in common/)', () => {
    const offenders = [
      ...sources('renderer/inspector').flatMap((f) => imports(f).filter((s) => landsIn(f, s, ['renderer/labels'])).map((s) => `${f} -> ${s}`)),
      ...sources('renderer/labels').flatMap((f) => imports(f).filter((s) => landsIn(f, s, ['renderer/inspector'])).map((s) => `${f} -> ${s}`)),
    ];
    expect(offenders).toEqual([]);
  });

  it('electron/ never imports from renderer/', () => {
    const offenders = sources('electron').flatMap((f) =>
      imports(f)
        .filter((s) => target(f, s) === 'renderer')
        .map((s) => `${f} -> ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('layers only point down: electron/engine/ imports nothing from the layers above it or the composition root', () => {
    // The engine is wired by electron/runtime/ (the composition root), never the other way round; a dynamic
    // import upwards is an upward import all the same.
    const above = ['model', 'policy', 'train', 'eval', 'cli', 'backend', 'runtime'].map((d) => `electron/${d}`);
    const engine = sources('electron/engine');
    expect(engine.length).toBeGreaterThan(0);
    const offenders = engine.flatMap((f) =>
      imports(f)
        .filter((s) => landsIn(f, s, above))
        .map((s) => `${f} -> ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('electron/common/ is the bottom layer: it imports nothing else of electron/', () => {
    const offenders = sources('electron/common').flatMap((f) =>
      imports(f)
        .filter((s) => target(f, s) === 'electron' && !landsIn(f, s, ['electron/common']))
        .map((s) => `${f} -> ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
