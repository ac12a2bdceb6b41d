// Writing or editing one labelling function as JSON: a template per kind to start from, the schema's
// errors shown field by field as one types (the same zod schema the backend parses with), and the
// backend's own refusal (a duplicate name) shown beside the Save button.
import { useMemo, useState } from 'react';
import { LF_KINDS, type LfKind, LabellingFunctionSchema, type StoredLabellingFunction } from '../../shared/labelling-functions';
import { api } from '../api/client';
import { Button } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useAction } from '../common/useAction';
import { pretty, TEMPLATES } from './templates';

/** The schema's complaints about `text`, each as "path: message"; [] when it is a valid function. */
export function problemsOf(text: string): string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return [`not JSON: ${(err as Error).message}`];
  }
  const r = LabellingFunctionSchema.safeParse(raw);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.') || '(function)'}: ${i.message}`);
}

export function FunctionEditor({ editing, onSaved, onCancel }: { editing: StoredLabellingFunction | null; onSaved(): void; onCancel(): void }) {
  const [text, setText] = useState(() => pretty(editing?.spec ?? TEMPLATES['text-similarity']));
  const problems = useMemo(() => problemsOf(text), [text]);
  const save = useAction<StoredLabellingFunction>();
  const submit = async () => {
    const spec = JSON.parse(text) as unknown;
    const saved = await save.run(() => api.saveLabellingFunction({ spec: spec as never, ...(editing ? { id: editing.id } : {}) }));
    if (saved) {
      onSaved();
      if (!editing) setText(pretty(TEMPLATES['text-similarity']));
    }
  };
  return (
    <section className="panel lf-editor" data-testid="lf-editor">
      <h2>{editing ? `Edit “${editing.spec.name}”` : 'New labelling function'}</h2>
      {!editing && (
        <div className="lf-templates">
          <span className="muted small">start from:</span>
          {LF_KINDS.map((k: LfKind) => (
            <Button key={k} variant="link" onClick={() => setText(pretty(TEMPLATES[k]))} data-testid={`lf-template-${k}`}>
              {k}
            </Button>
          ))}
        </div>
      )}
      <textarea
        className="field mono lf-json"
        rows={9}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={problems.length > 0}
        data-testid="lf-json"
      />
      {problems.length > 0 && (
        <ul className="lf-problems bad-text" data-testid="lf-problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <ErrorBox title="Not saved" error={save.error} onDismiss={save.reset} />
      <div className="lf-editor-actions">
        <Button variant="primary" onClick={() => void submit()} disabled={problems.length > 0} busy={save.busy} data-testid="lf-save">
          {editing ? 'Save changes' : 'Add function'}
        </Button>
        {editing && <Button onClick={onCancel}>Cancel</Button>}
      </div>
      <p className="hint">
        Each function votes its <code>vote</code> on the pairs it recognises and abstains on the rest. Functions sharing a <code>group</code> are counted once by the
        label model (e.g. two thresholds of one similarity).
      </p>
    </section>
  );
}
