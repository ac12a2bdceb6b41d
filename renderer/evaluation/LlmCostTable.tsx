// What a run's LLM methods cost (the paper's Table 4): per method, calls, thousands of tokens and seconds
// per query, then the totals and how many calls the store's cache answered.

import type { LlmCostView } from '../../shared/views';

const fmt = (x: number, digits: number) => x.toLocaleString(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function LlmCostTable({ cost }: { cost: Record<string, LlmCostView> }) {
  return (
    <div className="metrics">
      <table className="metrics-table llm-cost" data-testid="eval-llm-cost">
        <thead>
          <tr>
            <th className="left">method</th>
            <th title="LLM calls per query (its corr / ind variants included)">calls / q</th>
            <th title="thousands of tokens (prompt + completion) per query">k tokens / q</th>
            <th title="seconds of the requests per query, as they were made (also when read from the cache)">s / q</th>
            <th>calls</th>
            <th>prompt tokens</th>
            <th>completion tokens</th>
            <th>seconds</th>
            <th title="calls this run read from the store's cache instead of asking">cached</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(cost).map(([name, c]) => (
            <tr key={name} data-testid={`eval-llm-cost-${name}`}>
              <th className="left mono">{name}</th>
              <td>{fmt(c.per_query.calls, 1)}</td>
              <td>{fmt(c.per_query.tokens / 1000, 2)}</td>
              <td>{fmt(c.per_query.seconds, 2)}</td>
              <td>{c.calls}</td>
              <td>{c.prompt_tokens}</td>
              <td>{c.completion_tokens}</td>
              <td>{fmt(c.seconds, 2)}</td>
              <td>{c.cache_hits}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
