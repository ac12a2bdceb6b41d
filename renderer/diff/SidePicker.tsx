// Chooses one side of a diff: a stored episode of the query (its analysis, or an evaluation run's
// episode of any method), or a fresh run of the query under a model, a policy and engine settings.

import { useState } from 'react';
import type { DiffSpec, StoredEpisodeOption } from '../../shared/diff';
import { variantName } from '../../shared/episode';
import type { ModelSummary } from '../../shared/views';
import { Button } from '../common/controls';

type Mode = 'stored' | 'run';

function initialMode(spec: DiffSpec | null): Mode {
  return spec && 'episodeId' in spec ? 'stored' : 'run';
}

function storedName(e: StoredEpisodeOption): string {
  return [`episode ${e.id}`, e.method, variantName(e.variant), e.model ?? 'unknown model', ...(e.runId !== null ? [`run ${e.runId}`] : []), `→ ${e.answer ?? 'no answer'}`].join(' · ');
}

/** Engine settings as typed: empty is none; otherwise a JSON object, or an error saying what is wrong. */
export function parseSettings(text: string): { value?: Record<string, unknown>; error?: string } {
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'engine settings are a JSON object, e.g. {"budget": 1}' };
    return { value: v as Record<string, unknown> };
  } catch (err) {
    return { error: `engine settings are not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function SidePicker({
  side,
  spec,
  queryId,
  episodes,
  models,
  onApply,
}: {
  side: 'left' | 'right';
  spec: DiffSpec | null;
  queryId: string;
  episodes: StoredEpisodeOption[];
  models: ModelSummary[];
  onApply: (spec: DiffSpec) => void;
}) {
  const run = spec && !('episodeId' in spec) ? spec : null;
  const [mode, setMode] = useState<Mode>(initialMode(spec));
  const [episodeId, setEpisodeId] = useState<number | null>(spec && 'episodeId' in spec ? spec.episodeId : (episodes[0]?.id ?? null));
  const [model, setModel] = useState<string>(run?.model ?? '');
  const [policy, setPolicy] = useState<'learned' | 'heuristic'>(run?.policy ?? 'learned');
  const [settings, setSettings] = useState<string>(run?.engine ? JSON.stringify(run.engine) : '');
  const parsed = parseSettings(settings);

  const apply = () => {
    if (mode === 'stored') {
      if (episodeId !== null) onApply({ episodeId });
      return;
    }
    if (parsed.error) return;
    onApply({ queryId, ...(model ? { model } : {}), ...(policy !== 'learned' ? { policy } : {}), ...(parsed.value ? { engine: parsed.value } : {}) });
  };

  return (
    <div className="diff-picker" data-testid={`diff-picker-${side}`}>
      <div className="segmented" role="group" aria-label={`${side} side`}>
        {(['run', 'stored'] as const).map((m) => (
          <button key={m} type="button" className={mode === m ? 'on' : ''} onClick={() => setMode(m)}>
            {m === 'run' ? 'run with…' : 'stored episode'}
          </button>
        ))}
      </div>
      {mode === 'stored' ? (
        episodes.length === 0 ? (
          <span className="muted">this query has no stored episode</span>
        ) : (
          <select className="field" value={episodeId ?? ''} onChange={(e) => setEpisodeId(Number(e.target.value))} data-testid={`diff-episode-${side}`}>
            {episodes.map((e) => (
              <option key={e.id} value={e.id}>
                {storedName(e)}
              </option>
            ))}
          </select>
        )
      ) : (
        <>
          <label>
            model{' '}
            <select className="field" value={model} onChange={(e) => setModel(e.target.value)} data-testid={`diff-model-${side}`}>
              <option value="">active model</option>
              {models.map((m) => (
                <option key={m.file} value={m.name}>
                  {m.name}
                  {m.active ? ' (active)' : ''}
                </option>
              ))}
              <option value="heuristic">heuristic provider</option>
            </select>
          </label>
          <label>
            policy{' '}
            <select className="field" value={policy} onChange={(e) => setPolicy(e.target.value as 'learned' | 'heuristic')} data-testid={`diff-policy-${side}`}>
              <option value="learned">learned</option>
              <option value="heuristic">heuristic</option>
            </select>
          </label>
          <label title='overrides of the engine configuration, as --engine-config takes them, e.g. {"budget": 1, "tauH": 0.2}'>
            settings{' '}
            <input
              className="field mono diff-settings"
              value={settings}
              placeholder='{"budget": 1}'
              onChange={(e) => setSettings(e.target.value)}
              data-testid={`diff-settings-${side}`}
            />
          </label>
        </>
      )}
      <Button onClick={apply} disabled={mode === 'run' && parsed.error !== undefined} data-testid={`diff-apply-${side}`}>
        Apply
      </Button>
      {mode === 'run' && parsed.error && <span className="bad diff-picker-error">{parsed.error}</span>}
    </div>
  );
}
