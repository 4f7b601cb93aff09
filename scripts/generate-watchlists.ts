/**
 * Writes fixtures/watchlists.json: the synthetic PEP and sanctions lists the PEP and sanctions screening
 * matches against. Deterministic (seeded Faker per person, seeded PRNG for structure), so running it
 * again gives the same bytes; the output is committed and the tests check it is up to date.
 *
 *   npx tsx scripts/generate-watchlists.ts          # (re)write the fixture
 *   npx tsx scripts/generate-watchlists.ts --check  # exit 1 when the committed fixture is stale
 *
 * What it holds: six datasets (two PEP lists, four sanctions lists modelled on the OFAC SDN, EU
 * consolidated, UN Security Council and UK HMT lists), one entry per person per list as real lists
 * publish them. Persons come from 30 Latin-script Faker locales (so many names carry diacritics);
 * US/UN-style lists print names in ASCII, the others keep the diacritics. About 10% of persons have no
 * known date of birth and lists drop it for a further 15% of entries. Some persons are on PEP and
 * sanctions lists at once. The magic persons of magic-values.ts are written as given, and generated
 * names never come near a magic or reserved test name. All names are invented; any resemblance to a
 * real person is coincidence.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  Faker,
  base,
  en,
  az,
  cs_CZ,
  da,
  de,
  de_AT,
  de_CH,
  en_GB,
  en_NG,
  en_US,
  en_ZA,
  es,
  es_MX,
  fi,
  fr,
  fr_BE,
  hr,
  hu,
  id_ID,
  it,
  lv,
  nb_NO,
  nl,
  pl,
  pt_BR,
  pt_PT,
  ro,
  sk,
  sl_SI,
  sv,
  tr,
  vi,
  type LocaleDefinition,
} from '@faker-js/faker';
import { rngFrom, seedFrom, type Rng } from '../src/platform/random/random.ts';
import { PEP_SANCTIONS_LISTED_PERSONS, PEP_SANCTIONS_MAGIC_NAMES, RESERVED_CLEAN_NAMES, WATCHLIST_DATASET_IDS as IDS } from '../src/screening/magic-values.ts';
import { foldToAscii, nameSimilarity, nameTokens, normalizeName } from '../src/screening/name-similarity.ts';
import { WatchlistSchema, type Watchlist, type WatchlistDataset, type WatchlistEntry } from '../src/screening/pep-sanctions.schemas.ts';

export const WATCHLIST_SEED = 20_240_917;
export const WATCHLIST_PATH = fileURLToPath(new URL('../fixtures/watchlists.json', import.meta.url));

const DATASETS: WatchlistDataset[] = [
  {
    id: IDS.pepGlobal,
    title: 'Sandbox Global PEP List',
    kind: 'pep',
    description: 'Heads of state, ministers, legislators, senior judges, military and central-bank officials (fictional).',
  },
  {
    id: IDS.pepRelatives,
    title: 'Sandbox PEP Relatives and Close Associates',
    kind: 'pep',
    description: 'Family members and close associates of politically exposed persons (fictional).',
  },
  {
    id: IDS.ofacLike,
    title: 'Sandbox OFAC-like SDN List',
    kind: 'sanctions',
    description: 'Specially designated nationals in the style of a US list; names printed in ASCII (fictional).',
  },
  {
    id: IDS.eu,
    title: 'Sandbox EU Consolidated Financial Sanctions List',
    kind: 'sanctions',
    description: 'Persons subject to EU-style financial sanctions (fictional).',
  },
  {
    id: IDS.un,
    title: 'Sandbox UN Security Council Consolidated List',
    kind: 'sanctions',
    description: 'Persons designated by a UN-style sanctions committee; names printed in ASCII (fictional).',
  },
  {
    id: IDS.ukHmt,
    title: 'Sandbox UK HMT Consolidated List',
    kind: 'sanctions',
    description: 'Financial sanctions targets in the style of the UK list (fictional).',
  },
];
const ASCII_DATASETS = new Set<string>([IDS.ofacLike, IDS.un]);
const SANCTIONS_DATASETS = [IDS.ofacLike, IDS.eu, IDS.un, IDS.ukHmt] as const;

const LOCALES: readonly { definition: LocaleDefinition; country: string }[] = [
  { definition: de, country: 'DE' },
  { definition: de_AT, country: 'AT' },
  { definition: de_CH, country: 'CH' },
  { definition: fr, country: 'FR' },
  { definition: fr_BE, country: 'BE' },
  { definition: es, country: 'ES' },
  { definition: es_MX, country: 'MX' },
  { definition: it, country: 'IT' },
  { definition: pl, country: 'PL' },
  { definition: pt_BR, country: 'BR' },
  { definition: pt_PT, country: 'PT' },
  { definition: ro, country: 'RO' },
  { definition: hu, country: 'HU' },
  { definition: cs_CZ, country: 'CZ' },
  { definition: sk, country: 'SK' },
  { definition: tr, country: 'TR' },
  { definition: vi, country: 'VN' },
  { definition: sv, country: 'SE' },
  { definition: nb_NO, country: 'NO' },
  { definition: da, country: 'DK' },
  { definition: fi, country: 'FI' },
  { definition: hr, country: 'HR' },
  { definition: sl_SI, country: 'SI' },
  { definition: lv, country: 'LV' },
  { definition: nl, country: 'NL' },
  { definition: en_GB, country: 'GB' },
  { definition: en_US, country: 'US' },
  { definition: en_NG, country: 'NG' },
  { definition: en_ZA, country: 'ZA' },
  { definition: id_ID, country: 'ID' },
  { definition: az, country: 'AZ' },
];

const PEP_ROLES = [
  'Member of Parliament',
  'Deputy Minister of Finance',
  'Minister of Energy',
  'Ambassador',
  'Supreme Court judge',
  'Central bank board member',
  'Regional governor',
  'Mayor of the capital',
  'Chief of the general staff',
  'Head of a state-owned enterprise',
  'Senator',
  'Secretary of State for Trade',
  'Auditor general',
];
const RELATIONS = [
  'Spouse of a minister',
  'Child of a head of state',
  'Business partner of a senator',
  'Sibling of a regional governor',
  'Close associate of a central bank governor',
];
const PROGRAMMES = ['SANDBOX-CYBER', 'SANDBOX-ARMS', 'SANDBOX-CORRUPTION', 'SANDBOX-TERRORISM', 'SANDBOX-NARCOTICS', 'SANDBOX-HUMAN-RIGHTS'];

interface Person {
  firstName: string;
  lastName: string;
  country: string;
  dateOfBirth: string | null;
}

const LATIN_NAME = /^[\p{Script=Latin}' .-]+$/u;
const pad = (n: number) => String(n).padStart(2, '0');

/** Names that must stay unlisted (reserved test names) or whose matches are documented (magic). */
function protectedNames(): string[][] {
  return [
    ...RESERVED_CLEAN_NAMES,
    ...PEP_SANCTIONS_MAGIC_NAMES.map((row) => `${row.query.firstName} ${row.query.lastName}`),
    ...PEP_SANCTIONS_LISTED_PERSONS.flatMap((person) => person.listings.flatMap((listing) => [listing.name, ...listing.aliases])),
  ].map(nameTokens);
}

function makePerson(index: number, rng: Rng, taken: Set<string>, guarded: string[][]): Person {
  for (let attempt = 0; ; attempt++) {
    const locale = rng.pick(LOCALES);
    const faker = new Faker({ locale: [locale.definition, en, base] });
    faker.seed(seedFrom(WATCHLIST_SEED, 'person', index, attempt));
    const sex = faker.helpers.arrayElement(['female', 'male'] as const);
    const firstName = faker.person.firstName(sex);
    const lastName = faker.person.lastName(sex);
    const full = `${firstName} ${lastName}`;
    const key = normalizeName(full);
    if (!LATIN_NAME.test(full) || taken.has(key)) continue;
    const tokens = nameTokens(full);
    if (guarded.some((other) => nameSimilarity(tokens, other).score >= 0.75)) continue;
    taken.add(key);
    const dateOfBirth = rng.chance(0.9) ? `${rng.int(1938, 1992)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}` : null;
    return { firstName, lastName, country: locale.country, dateOfBirth };
  }
}

/** A spelling variant such as lists carry as 'a.k.a.' (transliteration habits), if one applies. */
function spellingVariant(name: string): string | undefined {
  const rules: [RegExp, string][] = [
    [/V/g, 'W'],
    [/PH/g, 'F'],
    [/C(?=[AOU])/g, 'K'],
    [/Y/g, 'I'],
    [/OU/g, 'U'],
    [/SCH/g, 'SH'],
    [/([A-Z])\1/g, '$1'],
  ];
  for (const [pattern, replacement] of rules) {
    const variant = name.replace(pattern, replacement);
    if (variant !== name) return variant;
  }
  return undefined;
}

function listedName(person: Person, dataset: string): string {
  const printed = `${person.firstName} ${person.lastName.toUpperCase()}`;
  return ASCII_DATASETS.has(dataset) ? foldToAscii(printed) : printed;
}

export function generateWatchlists(): Watchlist {
  const rng = rngFrom('watchlists', WATCHLIST_SEED);
  const taken = new Set<string>();
  const guarded = protectedNames();
  const drafts: Omit<WatchlistEntry, 'id'>[] = [];
  let personIndex = 0;

  const addEntries = (person: Person, datasets: readonly string[], remarks: string, aliasChance: number) => {
    for (const dataset of datasets) {
      const name = listedName(person, dataset);
      const lastVariant = rng.chance(aliasChance) ? spellingVariant(person.lastName.toUpperCase()) : undefined;
      const alias = lastVariant === undefined ? undefined : listedName({ ...person, lastName: lastVariant }, dataset);
      drafts.push({
        dataset,
        name,
        aliases: alias === undefined || alias === name ? [] : [alias],
        country: rng.chance(0.1) ? null : person.country,
        dateOfBirth: person.dateOfBirth !== null && rng.chance(0.85) ? person.dateOfBirth : null,
        remarks,
      });
    }
  };
  const sanctionsLists = () => {
    const draw = rng.next();
    const count = draw < 0.4 ? 1 : draw < 0.75 ? 2 : draw < 0.95 ? 3 : 4;
    return rng.sample(SANCTIONS_DATASETS, count);
  };

  // PEPs: officials, then relatives and close associates.
  for (let i = 0; i < 130; i++) addEntries(makePerson(personIndex++, rng, taken, guarded), [IDS.pepGlobal], rng.pick(PEP_ROLES), 0);
  for (let i = 0; i < 30; i++) addEntries(makePerson(personIndex++, rng, taken, guarded), [IDS.pepRelatives], rng.pick(RELATIONS), 0);
  // Sanctioned persons, often on several lists.
  for (let i = 0; i < 90; i++) {
    addEntries(makePerson(personIndex++, rng, taken, guarded), sanctionsLists(), `${rng.pick(PROGRAMMES)} programme`, 0.25);
  }
  // Persons on both: a PEP list and one to three sanctions lists.
  for (let i = 0; i < 30; i++) {
    const person = makePerson(personIndex++, rng, taken, guarded);
    addEntries(person, [IDS.pepGlobal, ...sanctionsLists().slice(0, 3)], `${rng.pick(PEP_ROLES)}; ${rng.pick(PROGRAMMES)} designation`, 0.25);
  }
  // The magic persons, exactly as magic-values.ts lists them.
  for (const person of PEP_SANCTIONS_LISTED_PERSONS) {
    for (const listing of person.listings) {
      drafts.push({
        dataset: listing.dataset,
        name: listing.name,
        aliases: [...listing.aliases],
        country: person.country,
        dateOfBirth: listing.dateOfBirth,
        remarks: person.remarks,
      });
    }
  }

  const datasetOrder = new Map(DATASETS.map((dataset, index) => [dataset.id, index]));
  const sorted = drafts.sort(
    (a, b) => (datasetOrder.get(a.dataset) ?? 0) - (datasetOrder.get(b.dataset) ?? 0) || normalizeName(a.name).localeCompare(normalizeName(b.name)),
  );
  const entries: WatchlistEntry[] = sorted.map((draft, index) => ({ id: `wl-${String(index + 1).padStart(5, '0')}`, ...draft }));
  return WatchlistSchema.parse({ version: 1, generatedBy: 'scripts/generate-watchlists.ts', seed: WATCHLIST_SEED, datasets: DATASETS, entries });
}

export function serializeWatchlist(watchlist: Watchlist): string {
  return `${JSON.stringify(watchlist, null, 2)}\n`;
}

function main(): void {
  const text = serializeWatchlist(generateWatchlists());
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(WATCHLIST_PATH, 'utf8');
    } catch {
      current = '';
    }
    if (current !== text) {
      console.error(`${WATCHLIST_PATH} is stale: run npx tsx scripts/generate-watchlists.ts`);
      process.exit(1);
    }
    console.log(`${WATCHLIST_PATH} is up to date`);
    return;
  }
  writeFileSync(WATCHLIST_PATH, text);
  const watchlist = JSON.parse(text) as Watchlist;
  console.log(`wrote ${watchlist.entries.length} entries in ${watchlist.datasets.length} datasets to ${WATCHLIST_PATH}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
