// `npm run audit:electron`: Doyensec's Electronegativity (the static checker for Electron's security
// settings) over electron/, offline. Every HIGH or MEDIUM finding must be explained in
// electronegativity-allowlist.json beside this file (matched by check, file and source line, not by line
// number), and every explanation must still match a finding; otherwise the run fails. LOW and
// INFORMATIONAL findings are printed, not gated. test/electron/hardening.test.ts runs the same audit.
//
// Offline: the check that downloads Electron's release list (AvailableSecurityFixesGlobalCheck) is left out;
// keeping the electron package current is npm's job (npm outdated / npm audit). Electronegativity still
// tries once to fetch translations (1 s timeout) and prints a line when it cannot; that is harmless.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

export const ALLOWLIST_FILE = join(root, 'electron', 'packaging', 'electronegativity-allowlist.json');
/** Checks that need the network, left out so the audit gives the same answer everywhere. */
export const OFFLINE_EXCLUDED = ['AvailableSecurityFixesGlobalCheck'];
/** The severities that must be explained. */
export const GATED = ['HIGH', 'MEDIUM'] as const;

export interface Finding {
  id: string;
  severity: 'HIGH' | 'MEDIUM' | 'LOW' | 'INFORMATIONAL';
  confidence: 'CERTAIN' | 'FIRM' | 'TENTATIVE';
  /** Relative to the repo root. */
  file: string;
  line: number;
  /** The source line Electronegativity points at, trimmed ('' for global checks). */
  sample: string;
  description: string;
}

export interface AllowEntry {
  id: string;
  file: string;
  /** The flagged source line, trimmed; matched exactly, so a changed line asks for a fresh look. */
  sample: string;
  why: string;
}

export interface AuditResult {
  electron: string;
  findings: Finding[];
  /** Gated findings no allowlist entry explains: each fails the audit. */
  unexplained: Finding[];
  /** Gated findings with their explanation. */
  explained: Array<{ finding: Finding; why: string }>;
  /** Allowlist entries that match no finding any more: each fails the audit too (remove or update them). */
  stale: AllowEntry[];
}

interface RawIssue {
  id: string;
  file: string;
  sample?: string;
  description: string;
  location: { line: number; column: number };
  severity: { name: Finding['severity'] };
  confidence: { name: Finding['confidence'] };
}

type Run = (options: Record<string, unknown>, forCli?: boolean) => Promise<{ issues: RawIssue[]; errors: unknown[] }>;

export function readAllowlist(file = ALLOWLIST_FILE): AllowEntry[] {
  const entries = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(entries)) throw new Error(`${file}: not a JSON array of { id, file, sample, why }`);
  entries.forEach((e: Partial<AllowEntry>, i) => {
    for (const key of ['id', 'file', 'sample', 'why'] as const) {
      if (typeof e?.[key] !== 'string' || (key !== 'sample' && e[key].trim() === '')) throw new Error(`${file}: entry ${i} has no "${key}"`);
    }
  });
  return entries as AllowEntry[];
}

const matches = (f: Finding, e: AllowEntry): boolean => f.id === e.id && f.file === e.file && f.sample === e.sample.trim();

export async function auditElectron(options: { input?: string; allowlist?: AllowEntry[] } = {}): Promise<AuditResult> {
  const input = options.input ?? join(root, 'electron');
  const electron = (JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
  const run = require('@doyensec/electronegativity') as Run;
  const result = await run({
    input,
    isRelative: false,
    electronVersionOverride: electron,
    excludeFromScan: [...OFFLINE_EXCLUDED],
    customScan: [],
    parserPlugins: [],
  });
  const findings: Finding[] = result.issues.map((i) => ({
    id: i.id,
    severity: i.severity.name,
    confidence: i.confidence.name,
    file: relative(root, i.file),
    line: i.location.line,
    sample: i.sample && i.sample !== 'N/A' ? i.sample.trim() : '',
    description: i.description,
  }));
  const allowlist = options.allowlist ?? readAllowlist();
  const gated = findings.filter((f) => (GATED as readonly string[]).includes(f.severity));
  const explained: AuditResult['explained'] = [];
  const unexplained: Finding[] = [];
  for (const f of gated) {
    const entry = allowlist.find((e) => matches(f, e));
    if (entry) explained.push({ finding: f, why: entry.why });
    else unexplained.push(f);
  }
  const stale = allowlist.filter((e) => !gated.some((f) => matches(f, e)));
  return { electron, findings, unexplained, explained, stale };
}

function where(f: Finding): string {
  return `${f.file}:${f.line}${f.sample ? `  ${f.sample}` : ''}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await auditElectron();
  const count = (s: Finding['severity']): number => r.findings.filter((f) => f.severity === s).length;
  const out: string[] = [`Electronegativity on electron/ (Electron ${r.electron}): ${count('HIGH')} high, ${count('MEDIUM')} medium, ${count('LOW')} low, ${count('INFORMATIONAL')} informational`];
  for (const { finding, why } of r.explained) out.push(`  explained ${finding.severity} ${finding.id} ${where(finding)}\n    ${why}`);
  for (const f of r.findings.filter((x) => !(GATED as readonly string[]).includes(x.severity))) out.push(`  ${f.severity.toLowerCase()} ${f.id} ${where(f)}: ${f.description}`);
  for (const f of r.unexplained) out.push(`  UNEXPLAINED ${f.severity} ${f.id} ${where(f)}: ${f.description}`);
  for (const e of r.stale) out.push(`  STALE allowlist entry (no such finding now) ${e.id} ${e.file}  ${e.sample}`);
  const failed = r.unexplained.length + r.stale.length;
  out.push(failed === 0 ? 'ok: no high or medium finding left unexplained' : `failed: ${r.unexplained.length} unexplained, ${r.stale.length} stale (${relative(root, ALLOWLIST_FILE)})`);
  process.stdout.write(`${out.join('\n')}\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}
