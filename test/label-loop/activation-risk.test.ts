// The warning before activating a model: worse validation metrics, metrics that do not compare, in-sample.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EvalMetricsView, ModelSummary } from '../../shared/views';
import { activationWarnings } from '../../renderer/models/activationRisk';

const shipped = JSON.parse(readFileSync(new URL('../../models/default.card.json', import.meta.url), 'utf8')) as { metrics: { validation: EvalMetricsView } };

function model(name: string, validation: Partial<EvalMetricsView> | null, extra: Partial<ModelSummary> = {}): ModelSummary {
  return {
    name,
    file: `/m/${name}.onnx`,
    origin: 'user',
    active: false,
    createdAt: null,
    mu: 0.5,
    trainedOn: null,
    labelsUsed: 0,
    calibration: null,
    validation: validation ? { ...shipped.metrics.validation, ...validation } : null,
    validatedOn: 'validation',
    ...extra,
  };
}

describe('activation warnings', () => {
  const active = model('default', {}, { origin: 'shipped', active: true });

  it("names each metric on which the candidate is worse, with both values (the issue's 44.8 CMR model)", () => {
    const poor = model('from-store', { cmr: 44.8, accuracy: 70, rs: 30 });
    const warnings = activationWarnings(poor, active);
    const v = shipped.metrics.validation as { accuracy: number; cmr: number; rs: number };
    const f = (x: number) => x.toFixed(1);
    expect(warnings).toEqual([
      `accuracy 70.0 against ${f(v.accuracy)} for default (${f(v.accuracy - 70)} points worse)`,
      `CMR 44.8 against ${f(v.cmr)} for default (${f(v.cmr - 44.8)} points worse)`,
      `RS 30.0 against ${f(v.rs)} for default (${f(30 - v.rs)} points worse)`,
    ]);
  });

  it('says nothing for a model as good within a point, or for the active model itself', () => {
    expect(activationWarnings(model('twin', { cmr: (shipped.metrics.validation.cmr as number) - 0.6 }), active)).toEqual([]);
    expect(activationWarnings(active, active)).toEqual([]);
  });

  it('warns when the validation data differ, when there are no metrics, and when it was trained on the open store', () => {
    expect(activationWarnings(model('small', {}, { validatedOn: 'small-validation' }), active)[0]).toMatch(/validated on small-validation, default on validation: their metrics do not compare/);
    expect(activationWarnings(model('bare', null), active)).toEqual(['bare has no validation metrics: nothing says it is as good as default']);
    expect(activationWarnings(model('mine', {}, { inSample: true }), active)).toEqual([expect.stringMatching(/in-sample/)]);
  });
});
