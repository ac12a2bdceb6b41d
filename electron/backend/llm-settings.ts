// The app's LLM settings: which OpenAI-compatible endpoint and model the LLM methods ask, and the API key.
//
// Web mode reads them from the environment only (OPENAI_BASE_URL, OPENAI_API_KEY, CAMA_LLM_MODEL): a page
// in a browser must not be able to point the server at another endpoint or plant a key. In Electron the
// user may save them in the data folder (llm-settings.json, replaced atomically), the key encrypted by
// the operating system's keychain through Electron's safeStorage (handed in as a SecretBox, because only
// electron/main.ts may import 'electron'). Saved settings replace the environment's endpoint, model and
// key; the timeouts, retries and concurrency still come from the environment.
//
// The key leaves this module only inside an LlmConfig for a job worker (same process): never in a view,
// an error message or a log line.

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { LlmSettingsView } from '../../shared/views';
import { DEFAULT_BASE_URL, type LlmConfig, llmConfigFromEnv } from '../llm/client';

/** Encryption by the operating system's keychain (Electron's safeStorage in the app). */
export interface SecretBox {
  /** Whether encryption is backed by a keychain here (false, e.g., on Linux without a secret service). */
  available(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
}

export const WEB_MODE_REFUSAL = 'web mode reads the LLM settings from the environment (OPENAI_BASE_URL, OPENAI_API_KEY, CAMA_LLM_MODEL)';

const SavedSchema = z.object({
  endpoint: z.string().url(),
  model: z.string().min(1),
  /** The key as the SecretBox encrypted it, base64. */
  encryptedKey: z.string().min(1).optional(),
});
type Saved = z.infer<typeof SavedSchema>;

export interface LlmSettingsUpdate {
  endpoint: string;
  model: string;
  /** A new key; omitted: the saved key is kept. */
  key?: string;
  /** Forget the saved key (a local server needs none). */
  clearKey?: boolean;
}

export class LlmSettings {
  readonly file: string;

  constructor(
    dataDir: string,
    private readonly mode: 'electron' | 'web',
    private readonly secretBox?: SecretBox,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.file = join(dataDir, 'llm-settings.json');
  }

  /** What the settings panel shows: never the key, only whether there is one. */
  view(): LlmSettingsView {
    const saved = this.saved();
    const editable = this.mode === 'electron';
    const keyStorage = editable ? (this.secretBox?.available() ? 'keychain' : 'unavailable') : 'environment';
    if (saved) return { source: 'saved', endpoint: saved.endpoint, model: saved.model, keySet: saved.encryptedKey !== undefined, configured: true, editable, keyStorage };
    const model = this.env.CAMA_LLM_MODEL?.trim() || null;
    const endpoint = (this.env.OPENAI_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '');
    return { source: 'environment', endpoint, model, keySet: Boolean(this.env.OPENAI_API_KEY), configured: model !== null, editable, keyStorage };
  }

  /** Whether a model is named (false too when the saved settings are unreadable: the panel says why). */
  configured(): boolean {
    try {
      return this.view().configured;
    } catch {
      return false;
    }
  }

  /** The configuration the LLM methods run with; throws, saying what to set, when there is none. */
  config(): LlmConfig {
    const saved = this.saved();
    if (!saved) return llmConfigFromEnv(this.env);
    const key = saved.encryptedKey !== undefined ? this.decrypt(saved.encryptedKey) : undefined;
    return llmConfigFromEnv({ ...this.env, OPENAI_BASE_URL: saved.endpoint, CAMA_LLM_MODEL: saved.model, OPENAI_API_KEY: key ?? '' });
  }

  /** Saves the settings (Electron only); the key is stored only encrypted. */
  update(next: LlmSettingsUpdate): LlmSettingsView {
    if (this.mode !== 'electron') throw new Error(WEB_MODE_REFUSAL);
    const endpoint = next.endpoint.trim().replace(/\/+$/, '');
    const model = next.model.trim();
    if (!/^https?:$/.test(safeProtocol(endpoint))) throw new Error(`the endpoint must be an http(s) URL such as http://127.0.0.1:8080/v1, got "${next.endpoint}"`);
    if (model === '') throw new Error('the model name is empty: name the model the endpoint serves (e.g. qwen2.5-7b-instruct)');
    let encryptedKey = next.clearKey ? undefined : this.saved()?.encryptedKey;
    if (next.key !== undefined && !next.clearKey) {
      if (!this.secretBox?.available()) {
        throw new Error("this system offers no keychain to encrypt the API key with (Electron's safeStorage is unavailable): set OPENAI_API_KEY in the environment instead");
      }
      encryptedKey = this.secretBox.encrypt(next.key).toString('base64');
    }
    this.write({ endpoint, model, ...(encryptedKey !== undefined ? { encryptedKey } : {}) });
    return this.view();
  }

  /** Forgets the saved settings: the environment's apply again. */
  reset(): LlmSettingsView {
    if (this.mode !== 'electron') throw new Error(WEB_MODE_REFUSAL);
    rmSync(this.file, { force: true });
    return this.view();
  }

  private saved(): Saved | null {
    if (this.mode !== 'electron') return null; // web mode: the environment only, whatever the folder holds
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return null;
    }
    const parsed = SavedSchema.safeParse(safeJson(text));
    if (!parsed.success) throw new Error(`${this.file} is not valid LLM settings: save them again in the settings panel, or delete the file`);
    return parsed.data;
  }

  private decrypt(base64: string): string {
    if (!this.secretBox?.available()) throw new Error("the saved API key cannot be decrypted: this system's keychain (Electron's safeStorage) is unavailable");
    try {
      return this.secretBox.decrypt(Buffer.from(base64, 'base64'));
    } catch {
      throw new Error('the saved API key cannot be decrypted (was it saved by another user or machine?): enter it again in the settings panel');
    }
  }

  private write(saved: Saved): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
