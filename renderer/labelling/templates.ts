// Starting points for the function editor: one example per kind, in the versioned JSON form
// (shared/labelling-functions.ts), so that a researcher edits a working function rather than a blank page.
import type { LabellingFunctionInput, LfKind } from '../../shared/labelling-functions';

export const TEMPLATES: Record<LfKind, LabellingFunctionInput> = {
  'text-similarity': { version: 1, name: 'near-duplicate text', kind: 'text-similarity', min: 0.6, max: 1, vote: 'dependent' },
  'shared-rare-ngram': { version: 1, name: 'shares a rare 3-gram', kind: 'shared-rare-ngram', n: 3, maxDocs: 3, vote: 'dependent' },
  'same-agent-within': { version: 1, name: 'same agent within 5', kind: 'same-agent-within', window: 5, vote: 'dependent' },
  'names-other-agent': { version: 1, name: 'names the other agent', kind: 'names-other-agent', vote: 'dependent' },
  'same-source-time': { version: 1, name: 'same source and time', kind: 'same-source-time', window: 1, vote: 'dependent' },
  'recorded-provenance': { version: 1, name: 'no recorded link', kind: 'recorded-provenance', absent: true, vote: 'independent' },
  'quoted-span': { version: 1, name: 'quotes the other', kind: 'quoted-span', minWords: 3, vote: 'dependent' },
};

export const pretty = (x: unknown): string => JSON.stringify(x, null, 2);
