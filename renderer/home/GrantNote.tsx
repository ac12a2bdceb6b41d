// Web mode's grant, said where paths are typed: the server opens stores and bundles only inside the data
// folder and the folders named with --allow when it started (electron/backend/grant.ts).

import { useSession } from '../common/session';

export function GrantNote() {
  const granted = useSession((s) => s.session?.granted);
  if (!granted || granted.length === 0) return null;
  return (
    <span data-testid="granted-folders">
      {' '}Only inside{' '}
      {granted.map((f, i) => (
        <span key={f}>
          {i > 0 && ', '}
          <code>{f}</code>
        </span>
      ))}
      {' '}(start the server with <code>--allow DIR</code> for another folder).
    </span>
  );
}
