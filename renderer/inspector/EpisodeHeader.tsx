// The inspector's header: the question, the gold answer, CAMA's final answer against the majority vote at
// t = 0, and which assignment provider and policy produced the episode (flagged when they are the
// heuristic stand-ins rather than trained models).

import { Link } from 'wouter';
import { variantName } from '../../shared/episode';
import type { EpisodeView } from '../../shared/views';
import { compareEpisodeHref } from '../diff/links';
import { majorityOf, sameValue } from './derive';

// Episodes record whether their provider and policy are heuristic stand-ins; older records only name
// them, so the known stand-in names are the fallback.
const HEURISTIC_MODEL = 'heuristic-components';
const HEURISTIC_POLICY = 'heuristic-policy';

function isHeuristic(recorded: unknown, byName: boolean): boolean {
  return typeof recorded === 'boolean' ? recorded : byName;
}

function Verdict({ value, gold }: { value: string | null; gold: string | null }) {
  if (value === null) return <span className="muted">none</span>;
  if (gold === null) return <b>{value}</b>;
  const right = sameValue(value, gold);
  return (
    <b className={right ? 'good' : 'bad'}>
      {value} {right ? '✓' : '✗'}
    </b>
  );
}

function Component({ label, name, heuristic }: { label: string; name: string; heuristic: boolean }) {
  return (
    <span className="component">
      <span className="muted">{label}</span> <code>{name}</code>
      {heuristic && (
        <span className="badge heuristic" title="a hand-written stand-in, not a trained model (see README: Heuristic stand-ins)">
          heuristic stand-in
        </span>
      )}
    </span>
  );
}

export function EpisodeHeader({ view }: { view: EpisodeView }) {
  const { episode, query } = view;
  const gold = query.answer ?? null;
  const majority = majorityOf(view.votes[0]);
  const model = String(episode.config.model ?? episode.steps[0]?.provider ?? 'unknown');
  const policy = String(episode.config.policy ?? 'unknown');
  const flip = majority.answer !== null && episode.answer !== null && !sameValue(majority.answer, episode.answer);
  return (
    <header className="insp-header">
      <div className="insp-crumbs">
        <Link href="/browser">← Queries</Link>
        <span className="muted">
          episode {episode.id} · query {query.id} · {episode.method} · <span title={variantName(episode.variant, 'long')}>{variantName(episode.variant)}</span>
        </span>
        <Link href={compareEpisodeHref(episode)} data-testid="compare-with" title="this query under another model, policy, engine settings or run, step by step">
          Compare with…
        </Link>
        {query.tags.map((tag) => (
          <span key={tag} className="tag plain">
            {tag}
          </span>
        ))}
      </div>
      <h1 className="insp-question" data-testid="question">
        {query.text}
      </h1>
      <div className="insp-verdicts">
        <span>
          <span className="muted">gold</span> {gold !== null ? <b data-testid="gold-answer">{gold}</b> : <span className="muted">unknown</span>}
        </span>
        <span data-testid="cama-answer">
          <span className="muted">CAMA (final)</span> <Verdict value={episode.answer} gold={gold} />
        </span>
        <span data-testid="majority-answer">
          <span className="muted">majority vote (t = 0)</span> <Verdict value={majority.answer} gold={gold} />
          {majority.answer !== null && (
            <span className="muted">
              {' '}
              ({majority.count} of {majority.total} entries{majority.tied.length > 1 ? `, tied with ${majority.tied.filter((v) => v !== majority.answer).join(', ')}` : ''})
            </span>
          )}
        </span>
        {flip && <span className="badge flip">CAMA overrules the vote</span>}
        <span className="insp-components">
          <Component label="provider" name={model} heuristic={isHeuristic(episode.config.modelHeuristic, model === HEURISTIC_MODEL)} />
          <Component label="policy" name={policy} heuristic={isHeuristic(episode.config.policyHeuristic, policy === HEURISTIC_POLICY)} />
        </span>
      </div>
    </header>
  );
}
