// Moving data in and out of the open store: import a bundle folder (a job; a bad bundle changes
// nothing and its error names file:line and field, shown verbatim) and export the store as a bundle.

import { useState } from 'react';
import { api } from '../api/client';
import { BrowseButton } from '../common/BrowseButton';
import { Button } from '../common/controls';
import { importSummary } from './importSummary';
import { isRunning, runJob, useJob } from '../common/jobs';
import { JobPanel } from '../common/ProgressBar';
import { GrantNote } from './GrantNote';


export function ImportPanel({ hasStore, web }: { hasStore: boolean; web: boolean }) {
  const [dir, setDir] = useState('');
  const job = useJob('import');
  const running = isRunning(job);
  const summary = importSummary(job?.status);
  return (
    <section className="panel">
      <h2>Import a bundle</h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const d = dir.trim();
          if (d) void runJob('import', () => api.startImport({ dir: d }));
        }}
      >
        <input
          className="field mono grow"
          value={dir}
          onChange={(e) => setDir(e.target.value)}
          placeholder="/path/to/bundle-folder"
          aria-label="bundle folder"
          data-testid="import-dir"
          disabled={!hasStore}
        />
        <BrowseButton kind="folder" title="The bundle folder to import" onPick={setDir} disabled={!hasStore} />
        <Button type="submit" variant="primary" busy={running} disabled={!hasStore || !dir.trim()} data-testid="import-button">
          Import
        </Button>
      </form>
      <p className="hint">
        {hasStore ? 'Into the open store, in one transaction: a bundle with errors writes nothing.' : 'Open a store first.'}
        {web && ' Web mode: the folder is on the server machine.'}
        <GrantNote />
      </p>
      <JobPanel kind="import" failureTitle="Import failed" />
      {summary && <p className="ok-line">{summary}</p>}
    </section>
  );
}

export function ExportPanel({ hasStore, web }: { hasStore: boolean; web: boolean }) {
  const [dir, setDir] = useState('');
  const [replace, setReplace] = useState(false);
  const job = useJob('export');
  const running = isRunning(job);
  const written = job?.status?.state === 'done' ? (job.status.result as { dir: string; files: string[]; replaced?: boolean } | undefined) : undefined;
  return (
    <section className="panel">
      <h2>Export as a bundle</h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const d = dir.trim();
          if (d) void runJob('export', () => api.startExport({ dir: d, replace }));
        }}
      >
        <input
          className="field mono grow"
          value={dir}
          onChange={(e) => setDir(e.target.value)}
          placeholder="/path/to/new-folder"
          aria-label="export folder"
          data-testid="export-dir"
          disabled={!hasStore}
        />
        <BrowseButton kind="folder" title="The folder to export into" onPick={setDir} disabled={!hasStore} />
        <Button type="submit" busy={running} disabled={!hasStore || !dir.trim()} data-testid="export-button">
          Export
        </Button>
      </form>
      <label className="hint" title="Without it, a folder that already holds a bundle is refused: it may be the only copy of someone's data.">
        <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} disabled={!hasStore} data-testid="export-replace" /> replace the
        bundle there, if the folder holds one
      </label>
      <p className="hint">
        Written atomically (a temporary folder renamed into place).{web && ' Web mode: the folder is on the server machine.'}
        <GrantNote />
      </p>
      <JobPanel kind="export" failureTitle="Export failed" />
      {written && (
        <p className="ok-line">
          Wrote {written.files.join(', ')} to <span className="mono">{written.dir}</span>
          {written.replaced ? ', replacing the bundle that was there' : ''}.
        </p>
      )}
    </section>
  );
}
