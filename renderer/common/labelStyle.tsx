// How each label value looks: the same red / green the inspector's graph draws labelled edges with, so a
// "dependent" judgement reads the same everywhere.

import './labelling.css';
import type { LabelValue } from '../../shared/domain';
import { EDGE_STYLE } from './edgeStyle';

export const LABEL_VALUES: readonly LabelValue[] = ['dependent', 'independent', 'unsure'];

export const LABEL_COLOR: Record<LabelValue, string> = {
  dependent: EDGE_STYLE.dependent.stroke,
  independent: EDGE_STYLE.independent.stroke,
  unsure: '#7d8894',
};

/** The key that gives each label in the queue. */
export const LABEL_KEY: Record<LabelValue, string> = { dependent: 'D', independent: 'I', unsure: 'U' };

export function LabelChip({ value }: { value: LabelValue }) {
  return (
    <span className={`label-chip ${value}`} style={{ borderColor: LABEL_COLOR[value], color: LABEL_COLOR[value] }}>
      {value}
    </span>
  );
}
