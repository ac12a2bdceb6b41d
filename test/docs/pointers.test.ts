// Every document that the CLI's help texts and the generated manifests point to exists in this
// repository (they once named DESIGN.md and ../shared/BUNDLE.md, which it does not hold), and the
// bundle-format page names every field the schemas know.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { FIELDS } from '../../electron/bundle/schemas';
import { calibrateCommand } from '../../electron/cli/commands/calibrate';
import { episodeCommand } from '../../electron/cli/commands/episode';
import { evalCommand } from '../../electron/cli/commands/eval';
import { protocolCommand } from '../../electron/cli/commands/protocol';
import { simulateCommand } from '../../electron/cli/commands/simulate';
import { situatedQaCommand } from '../../electron/cli/commands/situatedqa';
import { exportCommand, importCommand } from '../../electron/cli/commands/store';
import { trainCommand } from '../../electron/cli/commands/train';
import { trainPolicyCommand } from '../../electron/cli/commands/train-policy';
import { simulateInto } from '../simulator/helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const COMMANDS = [simulateCommand, situatedQaCommand, importCommand, exportCommand, evalCommand, protocolCommand, episodeCommand, calibrateCommand, trainCommand, trainPolicyCommand];

/** A command's help and that of every subcommand below it. */
function helpTexts(cmd: Command): string[] {
  return [cmd.helpInformation(), ...cmd.commands.flatMap(helpTexts)];
}

/** The Markdown files a text names (`docs/bundle-format.md`, `README.md`, ...). */
function mdPointers(text: string): string[] {
  return [...text.matchAll(/[\w./-]*\.md\b/g)].map((m) => m[0]);
}

/** Names of files a command writes (`protocol --out` writes protocol.md), not documents it points to. */
const WRITTEN = new Set(['protocol.md']);

const missing = (pointers: string[]) => pointers.filter((p) => !fs.existsSync(path.join(root, p)));

describe('pointers to documents', () => {
  it('every Markdown file a CLI help text names exists, and none is DESIGN.md or BUNDLE.md', () => {
    const help = COMMANDS.flatMap((make) => helpTexts(make())).join('\n');
    const pointers = mdPointers(help).filter((p) => !WRITTEN.has(p));
    expect(pointers).toContain('docs/bundle-format.md');
    expect(missing(pointers)).toEqual([]);
    expect(help).not.toMatch(/DESIGN\.md|BUNDLE\.md/);
  });

  it("a generated bundle's manifest points to the bundle-format page, which exists", async () => {
    const dir = await simulateInto({ seed: 3 });
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim()) as Record<string, unknown>;
    expect(manifest.format).toBe('docs/bundle-format.md');
    expect(missing(mdPointers(JSON.stringify(manifest)))).toEqual([]);
  });

  it('the bundle-format page has a row for every field of every file the schemas know, and points only to files that exist', () => {
    const doc = fs.readFileSync(path.join(root, 'docs/bundle-format.md'), 'utf8');
    for (const [file, fields] of Object.entries(FIELDS)) {
      const name = file === 'provenance' ? 'provenance.jsonl' : `${file}.jsonl`;
      const section = doc.split(`\n## \`${name}\``)[1]?.split('\n## ')[0];
      expect(section, `a section for ${name}`).toBeDefined();
      for (const f of fields) expect(section, `${name}: ${f}`).toContain(`| \`${f}\` |`);
    }
    expect(missing(mdPointers(doc.replace(/\[[^\]]*\]\(https?:[^)]*\)/g, '')))).toEqual([]);
  });
});
