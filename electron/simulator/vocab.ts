// The simulator's vocabularies: kinds of subject (people, organisations, countries, cities, and the
// original "facility" world of gates and depots), the attributes each kind has, and the value pools an
// attribute draws from. Real-world names throughout, and truths that are COUNTERFACTUAL: a value is
// drawn at random from the attribute's pool, so a world may say that Toyota is headquartered in Lagos.
// A model must read what the memories say, not what it believes it knows.
//
// Every attribute has the canonical name its claims and queries use, synonyms that word it off-query
// (a memory using one shares fewer words with the question), question templates, and optional
// statement templates that state the fact in a sentence ("{subject} was born in {value}").

export type SubjectKind = 'person' | 'organisation' | 'country' | 'city' | 'facility';

export interface AttributeSpec {
  /** The canonical name, used by claims, queries and "house" wording. */
  name: string;
  /** Other ways agents write it (an off-query wording shares fewer words with the question). */
  synonyms: readonly string[];
  values: readonly string[];
  /** Questions, with {subject} and {attr}. */
  questions: readonly string[];
  /** Sentences stating the fact, with {subject}, {attr} and {value}; the generic ones are added to these. */
  statements?: readonly string[];
}

export interface Domain {
  kind: SubjectKind;
  attributes: readonly AttributeSpec[];
}

// --- value pools -------------------------------------------------------------------------------------

export const COUNTRIES = [
  'Argentina', 'Australia', 'Austria', 'Bangladesh', 'Belgium', 'Brazil', 'Canada', 'Chile', 'China', 'Colombia',
  'Croatia', 'Czech Republic', 'Denmark', 'Egypt', 'Estonia', 'Ethiopia', 'Finland', 'France', 'Germany', 'Ghana',
  'Greece', 'Hungary', 'Iceland', 'India', 'Indonesia', 'Ireland', 'Israel', 'Italy', 'Japan', 'Kenya',
  'Malaysia', 'Mexico', 'Morocco', 'Nepal', 'New Zealand', 'Nigeria', 'Norway', 'Pakistan', 'Peru', 'Poland',
  'Portugal', 'Romania', 'Saudi Arabia', 'Senegal', 'Singapore', 'South Africa', 'South Korea', 'Spain', 'Sweden',
  'Switzerland', 'Thailand', 'the Netherlands', 'the Philippines', 'the United Kingdom', 'the United States',
  'Tunisia', 'Turkey', 'Ukraine', 'Uruguay', 'Vietnam',
] as const;

export const CITIES = [
  'Amsterdam', 'Athens', 'Auckland', 'Bangkok', 'Barcelona', 'Berlin', 'Bogotá', 'Brisbane', 'Buenos Aires', 'Cairo',
  'Cape Town', 'Casablanca', 'Chicago', 'Copenhagen', 'Dakar', 'Dublin', 'Edinburgh', 'Florence', 'Frankfurt',
  'Geneva', 'Hamburg', 'Helsinki', 'Ho Chi Minh City', 'Hong Kong', 'Istanbul', 'Jakarta', 'Johannesburg', 'Karachi',
  'Kyiv', 'Kuala Lumpur', 'Lagos', 'Lima', 'Lisbon', 'Los Angeles', 'Lyon', 'Madrid', 'Manila', 'Marseille',
  'Melbourne', 'Mexico City', 'Milan', 'Montevideo', 'Montreal', 'Mumbai', 'Munich', 'Nairobi', 'Naples',
  'New Delhi', 'New York City', 'Osaka', 'Oslo', 'Ottawa', 'Porto', 'Prague', 'Reykjavík', 'Rio de Janeiro',
  'Rotterdam', 'San Francisco', 'Santiago', 'São Paulo', 'Seoul', 'Seville', 'Shanghai', 'Stockholm', 'Sydney',
  'Taipei', 'Tallinn', 'Tel Aviv', 'Toronto', 'Tunis', 'Valencia', 'Vancouver', 'Vienna', 'Warsaw', 'Zagreb', 'Zurich',
] as const;

export const LANGUAGES = [
  'Arabic', 'Bengali', 'Catalan', 'Croatian', 'Czech', 'Danish', 'Dutch', 'English', 'Estonian', 'Finnish', 'French',
  'German', 'Greek', 'Hebrew', 'Hindi', 'Hungarian', 'Icelandic', 'Indonesian', 'Italian', 'Japanese', 'Korean',
  'Malay', 'Mandarin Chinese', 'Norwegian', 'Polish', 'Portuguese', 'Romanian', 'Russian', 'Spanish', 'Swahili',
  'Swedish', 'Tagalog', 'Thai', 'Turkish', 'Ukrainian', 'Urdu', 'Vietnamese', 'Wolof', 'Yoruba',
] as const;

export const OCCUPATIONS = [
  'actor', 'architect', 'astronomer', 'baker', 'biologist', 'cartographer', 'chef', 'civil engineer', 'composer',
  'dentist', 'diplomat', 'economist', 'film director', 'firefighter', 'footballer', 'geologist', 'graphic designer',
  'historian', 'investment banker', 'journalist', 'judge', 'librarian', 'marine biologist', 'mathematician',
  'nurse', 'painter', 'pharmacist', 'photographer', 'physicist', 'pilot', 'poet', 'politician', 'professor of law',
  'sculptor', 'singer', 'software engineer', 'surgeon', 'translator', 'veterinarian', 'violinist',
] as const;

export const ORGANISATIONS = [
  'Airbus', 'Alibaba', 'Banco Santander', 'BBC', 'Bosch', 'Carlsberg', 'CERN', 'Danone', 'Deutsche Bahn', 'Ericsson',
  'Fiat', 'FIFA', 'Greenpeace', 'Heineken', 'IKEA', 'Infosys', 'Interpol', 'Lego', 'Maersk', 'Michelin', 'Nestlé',
  'Nokia', 'Novartis', 'Oxfam', 'Panasonic', 'Philips', 'Red Cross', 'Reuters', 'Royal Dutch Shell', 'Samsung',
  'Siemens', 'Sony', 'Spotify', 'Tata Group', 'Toyota', 'UNESCO', 'Unilever', 'Volvo', 'World Bank', 'Zara',
  'the University of Oslo', 'the Sorbonne', 'Kyoto University', 'the London Symphony Orchestra', 'Ajax Amsterdam',
] as const;

export const TEAMS = [
  'AC Milan', 'Ajax', 'Arsenal', 'Atlético Madrid', 'Bayern Munich', 'Benfica', 'Boca Juniors', 'Borussia Dortmund',
  'Celtic', 'Chelsea', 'FC Barcelona', 'Flamengo', 'Galatasaray', 'Inter Milan', 'Juventus', 'Liverpool',
  'Manchester United', 'Olympique Lyonnais', 'Paris Saint-Germain', 'Porto', 'Real Madrid', 'River Plate', 'Santos',
  'the Boston Celtics', 'the Chicago Bulls', 'the Golden State Warriors', 'the Los Angeles Lakers', 'the New York Yankees',
] as const;

export const INSTRUMENTS = ['accordion', 'bass guitar', 'cello', 'clarinet', 'double bass', 'drums', 'flute', 'harp', 'oboe', 'piano', 'saxophone', 'trumpet', 'viola', 'violin'] as const;

export const INDUSTRIES = [
  'aerospace', 'agriculture', 'automotive manufacturing', 'banking', 'biotechnology', 'brewing', 'construction',
  'consumer electronics', 'education', 'food processing', 'insurance', 'logistics', 'media', 'mining',
  'pharmaceuticals', 'renewable energy', 'retail', 'shipping', 'telecommunications', 'textiles', 'tourism',
] as const;

export const CURRENCIES = [
  'the euro', 'the US dollar', 'the pound sterling', 'the Swiss franc', 'the Japanese yen', 'the Indian rupee',
  'the Brazilian real', 'the Mexican peso', 'the South African rand', 'the Swedish krona', 'the Norwegian krone',
  'the Polish złoty', 'the Turkish lira', 'the Thai baht', 'the Kenyan shilling', 'the Nigerian naira',
] as const;

export const FIRST_NAMES = [
  'Ada', 'Ahmed', 'Aiko', 'Alejandro', 'Amara', 'Anders', 'Aneta', 'Arjun', 'Beatriz', 'Bilal', 'Camille', 'Chen',
  'Chiara', 'Dagny', 'Dmitri', 'Elif', 'Emeka', 'Esther', 'Fatima', 'Felix', 'Freya', 'Gabriel', 'Hana', 'Hugo',
  'Ines', 'Ingrid', 'Ivan', 'Jamal', 'Javier', 'Joanna', 'Kaito', 'Kwame', 'Lars', 'Leila', 'Lucia', 'Mateo', 'Maya',
  'Mei', 'Miguel', 'Miranda', 'Nadia', 'Nikolai', 'Noor', 'Olga', 'Omar', 'Priya', 'Rafael', 'Rosa', 'Sanjay',
  'Sofia', 'Stefan', 'Tariq', 'Tomás', 'Yara', 'Yusuf', 'Zanele', 'Zofia',
] as const;

export const LAST_NAMES = [
  'Abara', 'Andersen', 'Bakker', 'Banerjee', 'Castillo', 'Chowdhury', 'Costa', 'Dahl', 'Dubois', 'Eriksen', 'Ferreira',
  'Fischer', 'García', 'Haddad', 'Hansen', 'Hoffmann', 'Ibrahim', 'Ivanova', 'Jansen', 'Kaur', 'Kim', 'Kowalski',
  'Larsen', 'Lindqvist', 'Marchetti', 'Mendoza', 'Moreau', 'Nakamura', 'Novak', 'Nwosu', 'Okafor', 'Olsen', 'Otto',
  'Petrov', 'Quispe', 'Rahman', 'Rossi', 'Sato', 'Schmidt', 'Silva', 'Sokolov', 'Tanaka', 'Torres', 'Varga',
  'Vidal', 'Wayles', 'Weber', 'Yilmaz', 'Zhang',
] as const;

/** Words that make an organisation's name from a surname or a place ("Okafor Logistics"). */
export const ORG_SUFFIXES = ['Logistics', 'Holdings', 'Foods', 'Energy', 'Instruments', 'Press', 'Textiles', 'Labs', 'Shipping', 'Partners', 'Motors', 'Pharma'] as const;
/** Surnames reserved for organisation names, so a person's name never shares a word with one. */
export const ORG_FOUNDERS = ['Aldridge', 'Brandt', 'Corvin', 'Delacroix', 'Eastwick', 'Falkner', 'Greaves', 'Holloway', 'Ingram', 'Juniper', 'Kessler', 'Lindgren', 'Marlowe', 'Northcott', 'Oakley', 'Pemberton'] as const;

/** A date written the way people write them, e.g. "14 March 1962". */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;
export const DATES: readonly string[] = [1948, 1955, 1961, 1967, 1972, 1979, 1984, 1990, 1996, 2001].flatMap((year, i) =>
  [3, 9, 14, 21, 27].map((day, k) => `${day} ${MONTHS[(i * 5 + k * 7) % 12]} ${year}`),
);
export const YEARS: readonly string[] = Array.from({ length: 40 }, (_, i) => String(1852 + i * 4));
export const HEADCOUNTS: readonly string[] = ['850', '1,200', '2,750', '4,300', '9,800', '12,400', '27,000', '56,500', '110,000', '240,000'];
export const POPULATIONS: readonly string[] = ['85,000', '240,000', '610,000', '1.2 million', '2.7 million', '4.9 million', '8.4 million', '13 million', '48 million', '126 million'];

// --- domains -----------------------------------------------------------------------------------------

const GENERIC_STATEMENTS = ['the {attr} of {subject} is {value}', "{subject}'s {attr} is {value}", '{subject} has {value} as {attr}'];

export function statementsOf(a: AttributeSpec): readonly string[] {
  return [...(a.statements ?? []), ...GENERIC_STATEMENTS];
}

const names = (n: number): string[] => FIRST_NAMES.flatMap((f, i) => [`${f} ${LAST_NAMES[(i * 7) % LAST_NAMES.length]}`]).slice(0, n);

export const PERSON_ATTRIBUTES: readonly AttributeSpec[] = [
  {
    name: 'country of citizenship', synonyms: ['nationality', 'citizenship'], values: COUNTRIES,
    questions: ['What is the country of citizenship of {subject}?', 'Which country is {subject} a citizen of, by country of citizenship?'],
    statements: ['{subject} is a citizen of {value}', '{subject} holds {value} {attr}'],
  },
  {
    name: 'place of birth', synonyms: ['birthplace', 'home town'], values: CITIES,
    questions: ['What is the place of birth of {subject}?', 'Where was {subject} born (place of birth)?'],
    statements: ['{subject} was born in {value}'],
  },
  {
    name: 'occupation', synonyms: ['profession', 'line of work'], values: OCCUPATIONS,
    questions: ['What is the occupation of {subject}?', 'What occupation does {subject} have?'],
    statements: ['{subject} works as a {value}'],
  },
  {
    name: 'employer', synonyms: ['workplace', 'place of work'], values: ORGANISATIONS,
    questions: ['Who is the employer of {subject}?', 'Which employer does {subject} work for?'],
    statements: ['{subject} is employed by {value}'],
  },
  {
    name: 'native language', synonyms: ['mother tongue', 'first language'], values: LANGUAGES,
    questions: ['What is the native language of {subject}?', 'Which native language does {subject} speak?'],
  },
  {
    name: 'date of birth', synonyms: ['birthday', 'birth date'], values: DATES,
    questions: ['What is the date of birth of {subject}?', 'On what date of birth is {subject} registered?'],
  },
  {
    name: 'sports team', synonyms: ['club', 'side'], values: TEAMS,
    questions: ['Which sports team does {subject} play for?', 'What is the sports team of {subject}?'],
    statements: ['{subject} plays for {value}'],
  },
  {
    name: 'instrument', synonyms: ['main instrument', 'chosen instrument'], values: INSTRUMENTS,
    questions: ['What instrument does {subject} play?', 'Which instrument is {subject} known for?'],
    statements: ['{subject} plays the {value}'],
  },
];

export const ORGANISATION_ATTRIBUTES: readonly AttributeSpec[] = [
  {
    name: 'headquarters location', synonyms: ['head office', 'main base'], values: CITIES,
    questions: ['Where is the headquarters location of {subject}?', 'What is the headquarters location of {subject}?'],
    statements: ['{subject} is headquartered in {value}'],
  },
  {
    name: 'chief executive officer', synonyms: ['CEO', 'top boss'], values: names(40),
    questions: ['Who is the chief executive officer of {subject}?', 'Which person is chief executive officer of {subject}?'],
    statements: ['{subject} is led by {value}'],
  },
  {
    name: 'year founded', synonyms: ['founding year', 'inception'], values: YEARS,
    questions: ['In what year was {subject} founded?', 'What is the year founded of {subject}?'],
    statements: ['{subject} was founded in {value}'],
  },
  {
    name: 'industry', synonyms: ['sector', 'line of business'], values: INDUSTRIES,
    questions: ['What industry is {subject} in?', 'Which industry does {subject} operate in?'],
    statements: ['{subject} operates in {value}'],
  },
  {
    name: 'number of employees', synonyms: ['headcount', 'workforce'], values: HEADCOUNTS,
    questions: ['What is the number of employees of {subject}?', 'How large is the number of employees at {subject}?'],
    statements: ['{subject} employs {value} people'],
  },
  {
    name: 'parent organisation', synonyms: ['owner', 'parent company'], values: ORGANISATIONS,
    questions: ['What is the parent organisation of {subject}?', 'Which parent organisation owns {subject}?'],
    statements: ['{subject} is owned by {value}'],
  },
];

export const COUNTRY_ATTRIBUTES: readonly AttributeSpec[] = [
  {
    name: 'capital', synonyms: ['seat of government', 'capital city'], values: CITIES,
    questions: ['What is the capital of {subject}?', 'Which city is the capital of {subject}?'],
    statements: ['{value} is the capital of {subject}'],
  },
  {
    name: 'official language', synonyms: ['state language', 'language of government'], values: LANGUAGES,
    questions: ['What is the official language of {subject}?', 'Which official language does {subject} have?'],
  },
  {
    name: 'currency', synonyms: ['legal tender', 'money'], values: CURRENCIES,
    questions: ['What is the currency of {subject}?', 'Which currency is used in {subject}?'],
    statements: ['{subject} uses {value}'],
  },
  {
    name: 'head of government', synonyms: ['prime minister', 'leader'], values: names(48),
    questions: ['Who is the head of government of {subject}?', 'Who serves as head of government in {subject}?'],
  },
  {
    name: 'population', synonyms: ['number of inhabitants', 'headcount of residents'], values: POPULATIONS,
    questions: ['What is the population of {subject}?', 'How large is the population of {subject}?'],
    statements: ['{subject} has a population of {value}'],
  },
];

export const CITY_ATTRIBUTES: readonly AttributeSpec[] = [
  {
    name: 'mayor', synonyms: ['city leader', 'head of the council'], values: names(44),
    questions: ['Who is the mayor of {subject}?', 'Who serves as mayor of {subject}?'],
    statements: ['{value} is the mayor of {subject}'],
  },
  {
    name: 'twin city', synonyms: ['sister city', 'partner town'], values: CITIES,
    questions: ['What is the twin city of {subject}?', 'Which twin city does {subject} have?'],
    statements: ['{subject} is twinned with {value}'],
  },
  {
    name: 'population', synonyms: ['number of inhabitants', 'resident count'], values: POPULATIONS,
    questions: ['What is the population of {subject}?', 'How large is the population of {subject}?'],
    statements: ['{subject} has a population of {value}'],
  },
  {
    name: 'country', synonyms: ['nation', 'state it belongs to'], values: COUNTRIES,
    questions: ['Which country is {subject} in?', 'What country is {subject} part of?'],
    statements: ['{subject} is in {value}', '{subject} lies in {value}'],
  },
];

/** The original world: facilities with operational attributes (the demo store is written in it). */
export const FACILITY_ATTRIBUTES: readonly AttributeSpec[] = [
  { name: 'state', synonyms: ['status', 'condition'], values: ['open', 'closed', 'locked', 'sealed'], questions: [] },
  { name: 'location', synonyms: ['position', 'whereabouts'], values: ['quarry', 'harbour', 'orchard', 'ridge', 'ford'], questions: [] },
  { name: 'owner', synonyms: ['keeper', 'custodian'], values: ['Ada', 'Bram', 'Cleo', 'Dario', 'Esme'], questions: [] },
  { name: 'colour', synonyms: ['paint', 'livery'], values: ['red', 'blue', 'green', 'amber', 'grey'], questions: [] },
  { name: 'crew', synonyms: ['headcount', 'staffing'], values: ['two', 'three', 'five', 'eight'], questions: [] },
  { name: 'power', synonyms: ['charge', 'energy'], values: ['low', 'medium', 'high', 'critical'], questions: [] },
  { name: 'schedule', synonyms: ['timetable', 'rota'], values: ['dawn', 'noon', 'dusk', 'midnight'], questions: [] },
  { name: 'supplier', synonyms: ['vendor', 'provider'], values: ['Halden', 'Morrow', 'Ostrava', 'Pell'], questions: [] },
].map((a) => ({
  ...a,
  questions: ['What is the {attr} of the {subject}?', 'What {attr} does the {subject} have now?', 'Which {attr} is the {subject} in at present?'],
  statements: ['{subject} {attr} is {value}'],
}));

export const FACILITY_PREFIXES = ['north', 'south', 'east', 'west', 'upper', 'lower', 'old', 'new', 'inner', 'outer', 'central', 'river'] as const;
export const FACILITY_NOUNS = [
  'gate', 'bridge', 'depot', 'tower', 'pump', 'relay', 'convoy', 'hangar', 'reactor', 'barracks',
  'dock', 'well', 'silo', 'mill', 'lab', 'archive', 'beacon', 'cistern', 'forge', 'granary',
] as const;

export const DOMAINS: Readonly<Record<SubjectKind, Domain>> = {
  person: { kind: 'person', attributes: PERSON_ATTRIBUTES },
  organisation: { kind: 'organisation', attributes: ORGANISATION_ATTRIBUTES },
  country: { kind: 'country', attributes: COUNTRY_ATTRIBUTES },
  city: { kind: 'city', attributes: CITY_ATTRIBUTES },
  facility: { kind: 'facility', attributes: FACILITY_ATTRIBUTES },
};

export const SUBJECT_KINDS = Object.keys(DOMAINS) as SubjectKind[];
