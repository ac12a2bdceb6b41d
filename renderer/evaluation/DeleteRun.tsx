// Deleting a saved run (its results and the episodes it saved go with it). Two clicks: the first asks,
// the second deletes. The backend refuses a run still being written and says so.

import { useState } from 'react';
import { api } from '../api/client';
import { Button } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useAction } from '../common/useAction';

export function DeleteRun({ id, onDeleted }: { id: number; onDeleted: (id: number) => void }) {
  const [asking, setAsking] = useState(false);
  const action = useAction<{ deleted: number }>();
  const remove = async () => {
    if (await action.run(() => api.deleteEvalRun({ id }))) {
      setAsking(false);
      onDeleted(id);
    }
  };
  return (
    <div className="run-delete">
      {asking ? (
        <>
          <span className="muted">Delete run #{id} and its results?</span>
          <Button busy={action.busy} onClick={() => void remove()} data-testid="eval-run-delete-confirm">
            Delete
          </Button>
          <Button variant="link" onClick={() => setAsking(false)}>
            Cancel
          </Button>
        </>
      ) : (
        <Button variant="link" onClick={() => setAsking(true)} data-testid="eval-run-delete">
          Delete run
        </Button>
      )}
      <ErrorBox title={`Could not delete run #${id}`} error={action.error} onDismiss={action.reset} />
    </div>
  );
}
