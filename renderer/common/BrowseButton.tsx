// "Browse…": the native file or folder picker, in Electron only (web mode cannot reach the user's
// dialogs; the path field is typed there).

import { api, mode } from '../api/client';
import { Button } from './controls';

export function BrowseButton({
  kind,
  save,
  title,
  onPick,
  disabled,
}: {
  kind: 'file' | 'folder';
  save?: boolean;
  title: string;
  onPick: (path: string) => void;
  disabled?: boolean;
}) {
  if (mode !== 'electron') return null;
  return (
    <Button
      type="button"
      disabled={disabled}
      onClick={() =>
        void api.choosePath({ kind, save, title }).then((path) => {
          if (path) onPick(path);
        })
      }
    >
      Browse…
    </Button>
  );
}
