// The simulator's vocabulary: subjects, attributes with their synonyms and value domains, and the
// templates memories are written in. Value words never occur in subject names, so a claim's value is
// never confused with the thing it is about.

export interface AttributeSpec {
  /** The canonical word, used by queries and by "house" wording. */
  name: string;
  /** Other ways agents write it: a paraphrase that uses one of these shares fewer words with the query. */
  synonyms: readonly string[];
  values: readonly string[];
}

export const ATTRIBUTES: readonly AttributeSpec[] = [
  { name: 'state', synonyms: ['status', 'condition'], values: ['open', 'closed', 'locked', 'sealed'] },
  { name: 'location', synonyms: ['position', 'whereabouts'], values: ['quarry', 'harbour', 'orchard', 'ridge', 'ford'] },
  { name: 'owner', synonyms: ['keeper', 'custodian'], values: ['Ada', 'Bram', 'Cleo', 'Dario', 'Esme'] },
  { name: 'colour', synonyms: ['paint', 'livery'], values: ['red', 'blue', 'green', 'amber', 'grey'] },
  { name: 'crew', synonyms: ['headcount', 'staffing'], values: ['two', 'three', 'five', 'eight'] },
  { name: 'power', synonyms: ['charge', 'energy'], values: ['low', 'medium', 'high', 'critical'] },
  { name: 'schedule', synonyms: ['timetable', 'rota'], values: ['dawn', 'noon', 'dusk', 'midnight'] },
  { name: 'supplier', synonyms: ['vendor', 'provider'], values: ['Halden', 'Morrow', 'Ostrava', 'Pell'] },
];

export const SUBJECT_PREFIXES = ['north', 'south', 'east', 'west', 'upper', 'lower', 'old', 'new', 'inner', 'outer', 'central', 'river'] as const;
export const SUBJECT_NOUNS = [
  'gate', 'bridge', 'depot', 'tower', 'pump', 'relay', 'convoy', 'hangar', 'reactor', 'barracks',
  'dock', 'well', 'silo', 'mill', 'lab', 'archive', 'beacon', 'cistern', 'forge', 'granary',
] as const;

/** Observation wording. Index 0 is the "house" wording many independent observers share. */
export const OBSERVATION_TEMPLATES = [
  'Observed the {subject}: {attr} is {value}.',
  'Inspection of the {subject} found the {attr} {value}.',
  'Sensor log for {subject}: {attr} reads {value}.',
  'Checked the {subject} myself; its {attr} was {value}.',
  'Walked past the {subject}, {attr} looked {value}.',
  'Field note on {subject}: {attr} {value}.',
] as const;

/** Paraphrase wording: a relay retelling its parent, naming the parent's agent. */
export const PARAPHRASE_TEMPLATES = [
  '{source} reports that the {subject} {attr} is {value}.',
  'According to {source}, the {attr} of the {subject} is {value}.',
  'Heard from {source}: {subject} {attr} {value}.',
  'Passing on word that the {subject} has {attr} {value}.',
  'Relayed update: {subject}, {attr} {value}.',
] as const;

/** Summary wording; `{more}` lists merged facts about other attributes of the same subject. */
export const SUMMARY_TEMPLATES = [
  'Summary of field reports on the {subject}: {attr} {value}{more}.',
  'Digest for {subject}: {attr} {value}{more}.',
  'Roll-up of recent notes: {subject} {attr} {value}{more}.',
] as const;

/** Claim-free chatter that mentions a subject. */
export const CHATTER_TEMPLATES = [
  'Patrol passed the {subject} without incident.',
  'Maintenance crew scheduled a visit to the {subject}.',
  'Logged a routine check near the {subject}.',
  'Weather delayed work around the {subject}.',
  'Someone asked about the {subject} again.',
] as const;

/** Ways a question about (subject, attribute) is asked. */
export const QUESTION_TEMPLATES = [
  'What is the {attr} of the {subject}?',
  'What {attr} does the {subject} have now?',
  'Which {attr} is the {subject} in at present?',
] as const;

export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? `{${k}}`);
}
