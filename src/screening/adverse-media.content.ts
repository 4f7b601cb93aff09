/**
 * Text templates for synthetic adverse media findings: per category, a headline and a detail line
 * with the person's name and a place filled in. Publications and registries are fictional; links
 * use reserved example domains (RFC 2606), so nothing points at a real site.
 */
// The result's enumerations, here rather than beside their schemas: the job kind computes results
// without evaluating zod (it is registered when the platform is built, src/modules.ts).
export const FINDING_SEVERITIES = ['MEDIUM', 'HIGH', 'CRITICAL'] as const;

export const EXPOSURE_CATEGORIES = [
  'financial_crime',
  'terrorism',
  'regulatory',
  'political',
  'organized_crime',
  'violent_crime',
  'criminal_legal',
  'reputational',
  'court_records',
] as const;

export const SOURCE_KINDS = ['news', 'court-records', 'watchlist-database'] as const;

export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];
export type ExposureCategory = (typeof EXPOSURE_CATEGORIES)[number];
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface FindingTemplate {
  title: string;
  detail: string;
}

/** `{name}` and `{place}` are replaced. */
export const FINDING_TEMPLATES: Readonly<Record<ExposureCategory, readonly FindingTemplate[]>> = {
  financial_crime: [
    {
      title: '{name} questioned in {place} money-laundering probe',
      detail: 'Investigators examined transfers routed through shell companies linked to {name}.',
    },
    {
      title: 'Prosecutors link {name} to invoice fraud scheme',
      detail: 'Court filings allege {name} approved false invoices worth several million over three years.',
    },
    { title: '{name} named in sanctions-evasion inquiry', detail: 'Authorities in {place} say {name} helped move funds for a designated entity.' },
  ],
  terrorism: [
    {
      title: '{name} listed in terrorism-financing investigation',
      detail: 'A charity connected to {name} is accused of channelling donations to a proscribed group.',
    },
    {
      title: 'Assets of {name} frozen under counter-terrorism order',
      detail: 'The order issued in {place} cites payments to individuals on a terrorism watchlist.',
    },
  ],
  regulatory: [
    {
      title: 'Regulator fines firm directed by {name}',
      detail: 'The {place} financial regulator found failures in customer due diligence at a company run by {name}.',
    },
    { title: '{name} barred from acting as a company director', detail: 'A disqualification order against {name} runs for six years.' },
    { title: 'Licence of {name} suspended after compliance review', detail: 'The review found repeated breaches of reporting obligations.' },
  ],
  political: [
    {
      title: '{name} named in public procurement inquiry',
      detail: 'A parliamentary committee in {place} is examining contracts awarded while {name} held office.',
    },
    { title: 'Campaign donations to {name} under scrutiny', detail: 'Election authorities are reviewing undeclared donations received by {name}.' },
  ],
  organized_crime: [
    {
      title: 'Police report ties {name} to organised smuggling network',
      detail: 'The report describes {name} as a logistics contact for a group operating out of {place}.',
    },
    { title: '{name} arrested in {place} organised-crime raid', detail: 'Officers seized cash and documents at premises linked to {name}.' },
  ],
  violent_crime: [
    { title: '{name} charged with aggravated assault', detail: 'The charge follows an incident in {place}; {name} denies the allegation.' },
    { title: '{name} convicted over violent robbery', detail: 'A court in {place} handed {name} a custodial sentence.' },
  ],
  criminal_legal: [
    { title: '{name} convicted of tax evasion', detail: 'The court found {name} under-declared income over several tax years.' },
    { title: '{name} indicted on bribery charges', detail: 'Prosecutors in {place} allege {name} paid officials to win permits.' },
    { title: '{name} given suspended sentence for forgery', detail: 'Documents submitted by {name} to a lender were found to be forged.' },
  ],
  reputational: [
    { title: 'Former employees accuse {name} of misconduct', detail: 'Several former staff describe a pattern of intimidation at a company led by {name}.' },
    { title: 'Investors question business dealings of {name}', detail: 'Shareholders in {place} demanded an independent review of related-party deals.' },
  ],
  court_records: [
    { title: 'Civil judgment entered against {name} in {place} court', detail: 'The judgment concerns an unpaid commercial debt.' },
    { title: '{name} respondent in fraud-related civil claim', detail: 'The claim filed in {place} seeks damages for alleged misrepresentation.' },
  ],
};

/** Which categories a finding of each severity is drawn from. */
export const CATEGORIES_BY_SEVERITY: Readonly<Record<FindingSeverity, readonly ExposureCategory[]>> = {
  MEDIUM: ['regulatory', 'reputational', 'court_records', 'political', 'criminal_legal'],
  HIGH: ['financial_crime', 'criminal_legal', 'organized_crime', 'violent_crime', 'regulatory', 'political'],
  CRITICAL: ['terrorism', 'financial_crime', 'organized_crime'],
};

/** Fictional publishers per source kind; links built on example domains. */
export const SOURCES: Readonly<Record<SourceKind, readonly { name: string; urlBase: string | null }[]>> = {
  news: [
    { name: 'The Meridian Herald', urlBase: 'https://news.example.com/meridian-herald' },
    { name: 'Northgate Business Journal', urlBase: 'https://northgate.example.org/business' },
    { name: 'Capital Ledger', urlBase: 'https://capital-ledger.example.net/articles' },
  ],
  'court-records': [
    { name: 'Sandbox County Court Records', urlBase: 'https://courts.example.org/records' },
    { name: 'Federal Docket Index (sandbox)', urlBase: 'https://docket.example.org/cases' },
  ],
  'watchlist-database': [
    { name: 'Sandbox Enforcement Watchlist', urlBase: null },
    { name: 'Regulatory Actions Database (sandbox)', urlBase: null },
  ],
};

export const PLACES: readonly string[] = [
  'London',
  'Manchester',
  'New York',
  'Chicago',
  'Toronto',
  'Frankfurt',
  'Paris',
  'Madrid',
  'Milan',
  'Warsaw',
  'Dublin',
  'Amsterdam',
  'Zurich',
  'Singapore',
  'Dubai',
  'Johannesburg',
  'Sydney',
];

export const CATEGORY_LABELS: Readonly<Record<ExposureCategory, string>> = {
  financial_crime: 'financial crime',
  terrorism: 'terrorism',
  regulatory: 'regulatory',
  political: 'political',
  organized_crime: 'organized crime',
  violent_crime: 'violent crime',
  criminal_legal: 'criminal and legal',
  reputational: 'reputational',
  court_records: 'court records',
};
