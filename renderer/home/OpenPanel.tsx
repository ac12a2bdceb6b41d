// Opening a store: by path (a new path creates an empty store), the bundled demo, or a recent one.

import { useState } from 'react';
import type { StoreInfo } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { BrowseButton } from '../common/BrowseButton';
import { Button } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { when } from '../common/format';
import { useAction } from '../common/useAction';
import { GrantNote } from './GrantNote';

/** Opens with `call`, then refreshes the session (the store, the recent list, the revision). */
function useOpen() {
  const refresh = useSession((s) => s.refresh);
  const action = useAction<StoreInfo>();
  return {
    ...action,
    open: async (call: () => Promise<StoreInfo>) => {
      if (await action.run(call)) await refresh();
    },
  };
}

export function OpenDemoButton({ variant = 'default' }: { variant?: 'primary' | 'default' }) {
  const demo = useOpen();
  return (
    <>
      <Button variant={variant} busy={demo.busy} onClick={() => void demo.open(() => api.openDemo({}))} data-testid="open-demo">
        {demo.busy ? 'Opening the demo…' : 'Open the demo'}
      </Button>
      <ErrorBox title="Could not open the demo" error={demo.error} />
    </>
  );
}

export function OpenPanel({ web }: { web: boolean }) {
  const [path, setPath] = useState('');
  const opener = useOpen();
  const submit = () => {
    const p = path.trim();
    if (p) void opener.open(() => api.openStore({ path: p }));
  };
  return (
    <section className="panel">
      <h2>Open or create a store</h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <input
          className="field mono grow"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="/path/to/store.sqlite"
          aria-label="store file path"
          data-testid="store-path"
        />
        <BrowseButton kind="file" save title="Open or create a store" onPick={setPath} />
        <Button type="submit" variant="primary" busy={opener.busy} disabled={!path.trim()}>
          Open / create
        </Button>
        <OpenDemoButton />
      </form>
      <p className="hint">
        A path that does not exist yet creates an empty store there.
        {web && ' Web mode: paths are on the machine that runs the server, not on this browser’s machine.'}
        <GrantNote />
      </p>
      <ErrorBox title="Could not open the store" error={opener.error} onDismiss={opener.reset} />
    </section>
  );
}

export function RecentStores() {
  const recent = useSession((s) => s.session?.recent ?? null);
  const current = useSession((s) => s.session?.store?.path ?? null);
  const opener = useOpen();
  if (recent === null) return null;
  return (
    <section className="panel">
      <h2>Recent stores</h2>
      {recent.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ul className="recent" data-testid="recent-stores">
          {recent.map((r) => (
            <li key={r.path}>
              <button
                type="button"
                className={r.path === current ? 'recent-item current' : 'recent-item'}
                disabled={opener.busy}
                onClick={() => void opener.open(() => api.openStore({ path: r.path }))}
                title={r.path}
              >
                <span className="recent-name">{r.name}</span>
                {r.path === current && <span className="badge">open</span>}
                <span className="recent-when muted">{when(r.openedAt)}</span>
                <span className="recent-path mono muted">{r.path}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorBox title="Could not open the store" error={opener.error} onDismiss={opener.reset} />
    </section>
  );
}
