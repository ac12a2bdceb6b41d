// Generating a demo store: the correlation-aware simulator writes a seeded bundle, which is imported
// into a new store file, analysed, and opened (a job).

import { useState } from 'react';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { Button } from '../common/controls';
import { isRunning, runJob, useJob } from '../common/jobs';
import { JobPanel } from '../common/ProgressBar';
import { GrantNote } from './GrantNote';

/** The folder of a path, keeping the separator style it uses (the renderer has no path module). */
function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut > 0 ? path.slice(0, cut + 1) : '';
}

export function GeneratePanel({ web }: { web: boolean }) {
  const demoPath = useSession((s) => s.session?.demoPath ?? '');
  const [seed, setSeed] = useState(7);
  const [queries, setQueries] = useState(200);
  const [editedPath, setEditedPath] = useState<string | null>(null);
  const job = useJob('demo');
  const suggested = `${folderOf(demoPath)}demo-seed${seed}-${queries}q.sqlite`;
  const path = editedPath ?? suggested;
  const valid = Number.isInteger(seed) && seed >= 0 && Number.isInteger(queries) && queries >= 5 && queries <= 2000 && path.trim() !== '';
  return (
    <section className="panel">
      <h2>Generate a demo store</h2>
      <form
        className="generate"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void runJob('demo', () => api.startGenerateDemo({ seed, queries, path: path.trim() }));
        }}
      >
        <label>
          <span>seed</span>
          <input className="field num" type="number" min={0} value={seed} onChange={(e) => setSeed(e.target.valueAsNumber)} data-testid="demo-seed" />
        </label>
        <label>
          <span>queries</span>
          <input
            className="field num"
            type="number"
            min={5}
            max={2000}
            value={queries}
            onChange={(e) => setQueries(e.target.valueAsNumber)}
            data-testid="demo-queries"
          />
        </label>
        <label className="grow">
          <span>new store file</span>
          <input className="field mono" value={path} onChange={(e) => setEditedPath(e.target.value)} aria-label="new store file" data-testid="demo-path" />
        </label>
        <Button type="submit" variant="primary" busy={isRunning(job)} disabled={!valid} data-testid="generate-button">
          Generate
        </Button>
      </form>
      <p className="hint">
        5 to 2,000 queries; the file must not exist yet. The new store opens when it is ready.
        {web && ' Web mode: the file is written on the server machine.'}
        <GrantNote />
      </p>
      <JobPanel kind="demo" failureTitle="Generating the demo failed" />
    </section>
  );
}
