// Shows an error as the backend said it: the message verbatim (preformatted, since bundle errors span
// lines and name file:line and field), then the argument issues when a call was refused.

import './common.css';
import { ApiCallError } from '../api/client';

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}

export function ErrorBox({ error, title, onDismiss }: { error: unknown; title?: string; onDismiss?: () => void }) {
  if (error === null || error === undefined || error === '') return null;
  const issues = error instanceof ApiCallError ? (error.detail.issues ?? []) : [];
  return (
    <div className="error-box" role="alert">
      <div className="error-box-head">
        <strong>{title ?? 'Error'}</strong>
        {onDismiss && (
          <button type="button" className="btn link" onClick={onDismiss} aria-label="dismiss">
            dismiss
          </button>
        )}
      </div>
      <pre className="error-box-text">{errorText(error)}</pre>
      {issues.length > 0 && (
        <ul className="error-box-issues">
          {issues.map((i) => (
            <li key={`${i.path}:${i.message}`}>
              <code>{i.path}</code> {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
