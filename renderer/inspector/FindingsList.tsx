// The findings of a step (findings.ts) as a list of badges, each with its full statement visible: a
// researcher reads why the sentence may not be the whole story without hovering anything.

import type { Finding } from './findings';
import { useInspector } from './store';

export function FindingsList({ findings, testId = 'findings' }: { findings: readonly Finding[]; testId?: string }) {
  const hoverSlot = useInspector((s) => s.hoverSlot);
  if (findings.length === 0) return null;
  return (
    <ul className="findings" data-testid={testId}>
      {findings.map((f, k) => (
        <li
          key={`${f.kind}-${k}`}
          className={`finding sev-${f.severity}`}
          data-testid="finding"
          data-kind={f.kind}
          onMouseEnter={() => f.slots?.length === 1 && hoverSlot(f.slots[0] as number)}
          onMouseLeave={() => f.slots?.length === 1 && hoverSlot(null)}
        >
          <span className="finding-badge">{f.title}</span>
          <span className="finding-text">{f.text}</span>
        </li>
      ))}
    </ul>
  );
}
