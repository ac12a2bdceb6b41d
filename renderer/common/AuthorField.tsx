// The researcher's name as a text field: edited freely, taken on Enter or when the field loses focus
// (so the queue is not refetched on every keystroke). Escape puts the remembered name back.

import './labelling.css';
import { useEffect, useState } from 'react';
import { AUTHOR_MAX, useAuthor } from './author';

export function AuthorField({ testId, autoFocus }: { testId?: string; autoFocus?: boolean }) {
  const [author, setAuthor] = useAuthor();
  const [draft, setDraft] = useState(author);
  useEffect(() => setDraft(author), [author]);
  const commit = () => {
    if (draft.trim() !== author) setAuthor(draft);
  };
  return (
    <label className="author-field">
      <span className="muted">labelling as</span>
      <input
        className={`field${author ? '' : ' missing'}`}
        value={draft}
        maxLength={AUTHOR_MAX}
        placeholder="your name"
        aria-label="your name (labels carry it)"
        data-testid={testId}
        autoFocus={autoFocus}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            commit();
            e.currentTarget.blur();
          } else if (e.key === 'Escape') {
            setDraft(author);
            e.currentTarget.blur();
          }
        }}
      />
    </label>
  );
}
