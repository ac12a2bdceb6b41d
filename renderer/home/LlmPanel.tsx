// The LLM the evaluation's LLM methods (rag_llm, madam_rag, cama_llm) ask: endpoint, model, and whether
// an API key is set. The key itself never reaches this page: it can be typed in (Electron only, kept
// encrypted by the system keychain) but is never shown or sent back. Web mode shows the environment's
// settings, read-only.

import { useState } from 'react';
import type { LlmSettingsView } from '../../shared/views';
import { api } from '../api/client';
import { Badge, Button, Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useAction } from '../common/useAction';
import { useFetch } from '../common/useFetch';

export function LlmPanel() {
  const [revision, setRevision] = useState(0);
  const fetched = useFetch(`llmSettings:${revision}`, () => api.llmSettings({}));
  const settings = fetched.data;
  return (
    <section className="panel llm-panel" data-testid="llm-panel">
      <h2>LLM</h2>
      {fetched.error ? <ErrorBox title="Could not read the LLM settings" error={fetched.error} /> : null}
      {!settings ? (
        <Loading what="the LLM settings" />
      ) : (
        <>
          <Summary settings={settings} />
          {settings.editable ? (
            <LlmForm key={`${settings.endpoint}|${settings.model}`} settings={settings} onSaved={() => setRevision((r) => r + 1)} />
          ) : (
            <p className="hint" data-testid="llm-web-note">
              Web mode reads these from the server's environment: <code>OPENAI_BASE_URL</code>, <code>OPENAI_API_KEY</code>, <code>CAMA_LLM_MODEL</code>. Restart
              the server to change them.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function Summary({ settings }: { settings: LlmSettingsView }) {
  return (
    <dl className="llm-settings">
      <dt>endpoint</dt>
      <dd className="mono" data-testid="llm-endpoint">
        {settings.endpoint}
      </dd>
      <dt>model</dt>
      <dd className="mono" data-testid="llm-model">
        {settings.model ?? <span className="muted">none: the LLM methods are not offered</span>}
      </dd>
      <dt>API key</dt>
      <dd data-testid="llm-key">
        {settings.keySet ? <Badge tone="good">set</Badge> : <Badge>not set</Badge>}
        <span className="muted"> {settings.source === 'saved' ? 'saved in the app' : 'from the environment'}</span>
      </dd>
    </dl>
  );
}

/** Electron: edit and save; the key field is write-only (empty: keep the saved key). */
function LlmForm({ settings, onSaved }: { settings: LlmSettingsView; onSaved: () => void }) {
  const [endpoint, setEndpoint] = useState(settings.endpoint);
  const [model, setModel] = useState(settings.model ?? '');
  const [key, setKey] = useState('');
  const save = useAction<LlmSettingsView>();
  const noKeychain = settings.keyStorage === 'unavailable';
  const submit = async (args: Parameters<typeof api.setLlmSettings>[0]) => {
    const saved = await save.run(() => api.setLlmSettings(args));
    if (saved) {
      setKey('');
      onSaved();
    }
  };
  return (
    <form
      className="llm-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit({ endpoint: endpoint.trim(), model: model.trim(), ...(key !== '' ? { key } : {}) });
      }}
    >
      <label>
        <span>endpoint</span>
        <input className="field mono" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} placeholder="http://127.0.0.1:8080/v1" data-testid="llm-endpoint-input" />
      </label>
      <label>
        <span>model</span>
        <input className="field mono" value={model} onChange={(e) => setModel(e.target.value)} placeholder="qwen2.5-7b-instruct" data-testid="llm-model-input" />
      </label>
      <label>
        <span>API key {settings.keySet ? '(empty: keep the saved one)' : '(a local server needs none)'}</span>
        <input className="field mono" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} disabled={noKeychain} data-testid="llm-key-input" />
      </label>
      {noKeychain && <p className="hint">This system has no keychain to encrypt a key with: set OPENAI_API_KEY in the environment instead.</p>}
      <div className="row">
        <Button type="submit" variant="primary" busy={save.busy} disabled={endpoint.trim() === '' || model.trim() === ''} data-testid="llm-save">
          Save
        </Button>
        {settings.keySet && settings.source === 'saved' && (
          <Button variant="link" onClick={() => void submit({ endpoint: settings.endpoint, model: settings.model ?? model, clearKey: true })}>
            forget the key
          </Button>
        )}
        {settings.source === 'saved' && (
          <Button variant="link" onClick={() => void submit({ endpoint: settings.endpoint, model: settings.model ?? model, reset: true })}>
            use the environment
          </Button>
        )}
      </div>
      <ErrorBox title="Could not save the LLM settings" error={save.error} />
    </form>
  );
}
