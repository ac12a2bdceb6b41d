// The buttons behind the queue's keys (D, I, U, S / →, ←, Z), each showing its key, so the queue works
// by mouse as well and says how to work it by keyboard.

import type { LabelValue } from '../../shared/domain';
import { Button } from '../common/controls';
import { LABEL_COLOR, LABEL_KEY, LABEL_VALUES } from '../common/labelStyle';

export function LabelActions({
  disabled,
  canBack,
  canUndo,
  onLabel,
  onSkip,
  onBack,
  onUndo,
}: {
  disabled: boolean;
  canBack: boolean;
  canUndo: boolean;
  onLabel(value: LabelValue): void;
  onSkip(): void;
  onBack(): void;
  onUndo(): void;
}) {
  return (
    <div className="label-actions" role="toolbar" aria-label="label this pair">
      <Button onClick={onBack} disabled={!canBack} title="previous pair (←)">
        <kbd>←</kbd> previous
      </Button>
      {LABEL_VALUES.map((value) => (
        <Button
          key={value}
          className={`label-btn ${value}`}
          style={{ borderColor: LABEL_COLOR[value] }}
          onClick={() => onLabel(value)}
          disabled={disabled}
          data-testid={`label-${value}`}
          title={`${value} (${LABEL_KEY[value]})`}
        >
          <kbd>{LABEL_KEY[value]}</kbd> {value}
        </Button>
      ))}
      <Button onClick={onSkip} disabled={disabled} data-testid="label-skip" title="skip this pair (S or →)">
        <kbd>S</kbd> skip
      </Button>
      <Button onClick={onUndo} disabled={!canUndo} data-testid="label-undo" title="take back the last label (Z)">
        <kbd>Z</kbd> undo
      </Button>
    </div>
  );
}
