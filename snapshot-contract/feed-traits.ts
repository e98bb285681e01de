// What a reader of a snapshot needs to know about the feed a state's rates came from. The server
// decides behaviour from these traits and never from a feed's name: adding a feed kind is its name
// in FeedKind and one entry here (the compiler refuses a kind without one), its descriptor form
// (sources/descriptor.ts), and its folder pipeline/feeds/<kind>/ with one line in the adapter table.
import * as z from 'zod'
import type { Level } from './model.ts'

export const FeedKind = z.enum(['sst', 'cdtfa', 'idor-ordmache', 'tx-comptroller', 'fl-dor-surtax', 'az-dor-tpt', 'va-tax', 'mo-dor', 'al-dor', 'co-dor', 'nm-trd-grt', 'ak-arsstc', 'ny-dtf-pub718', 'sc-dor', 'la-remote-sellers', 'avalara-zip5', 'statutory', 'statute-table'])
export type FeedKind = z.infer<typeof FeedKind>

/** Who stands behind a feed's figures: a revenue department's file, an aggregator's estimate, a statute. */
export const SourceKind = z.enum(['official', 'aggregator', 'statute'])
export type SourceKind = z.infer<typeof SourceKind>

/** An Avalara ZIP5 table's file name (`TAXRATES_ZIP5_NY202512.csv`): state, year, month. */
export const AGGREGATOR_FILE_NAME = /^TAXRATES_ZIP5_([A-Z]{2})(\d{4})(\d{2})\.csv$/i

/** Who stands behind a rate read from `fileName` in a state whose feed is of `feedSourceKind`: an aggregator drop's rows are the aggregator's, whatever feed serves the state. */
export const sourceKindOfFile = (fileName: string, feedSourceKind: SourceKind): SourceKind => (AGGREGATOR_FILE_NAME.test(fileName.split(/[\\/]/).pop() ?? fileName) ? 'aggregator' : feedSourceKind)

export type FeedTraits = {
  /** who stands behind the figures: a revenue department's file, an aggregator's estimate, a statute */
  sourceKind: SourceKind
  /** how a candidate names its taxing place: Census GEOIDs (no place = unincorporated), a tax region's name, or none */
  placeModel: 'geoid' | 'name' | 'none'
  /** where an answer's effective date comes from */
  effectiveDateBasis: 'publisher_effective_date' | 'edition_only' | 'no_published_date'
  /** the highest confidence an answer may have (the statewide rate of a static state is `exact` regardless) */
  confidenceCeiling: 'high' | 'medium'
  /** one rate for every address of the state: any ZIP of the state answers the same */
  statewide: boolean
  /** which list of ZIPs the state's answers cover: the rows of the feed's edition, or the HUD–USPS crosswalk */
  zipUniverse: 'edition_rows' | 'crosswalk'
  /** editions are named by quarter (GAR2026Q2FEB19), which gives the deprecated meta.period */
  quarterlyEditions: boolean
  /** how the feed is named to people: in notes, warnings and the console */
  label: string
  /**
   * the levels whose jurisdictions the source gives the code the state's return asks for: the name of
   * that code system, and where it is kept (`code`: the authority's code is it; `own`: kept beside a
   * code of another system, rates.bin `k.filing`, where an authority without one has none)
   */
  filingCodes: Partial<Record<Level, FilingCodeTrait>>
}

export type FilingCodeTrait = { system: string; kept: 'code' | 'own' }

// The code systems of the filing codes: the SST members' jurisdiction FIPS codes (the SER's), the
// Comptroller's local codes Texas returns are filed by, Arizona's TPT region codes, New York's
// reporting codes (Publication 718's, which change with a rate: each edition's rates.bin keeps its own),
// Louisiana's domicile codes (a parish's `pp00`, a town's).
const SST_CODE: FilingCodeTrait = { system: 'SST jurisdiction code', kept: 'code' }
const inCode = (system: string): FilingCodeTrait => ({ system, kept: 'code' })
const TX_SYSTEM = 'Texas Comptroller local code'
const AZ_SYSTEM = 'Arizona TPT region code'
const NY_CODE: FilingCodeTrait = { system: 'New York sales tax reporting code', kept: 'own' }
const LA_CODE: FilingCodeTrait = { system: 'Louisiana domicile code', kept: 'own' }

/** A revenue department's per-place rates, bound to ZIPs through the crosswalk by Census GEOIDs. */
const OFFICIAL_PER_PLACE = {
  sourceKind: 'official',
  placeModel: 'geoid',
  confidenceCeiling: 'high',
  statewide: false,
  zipUniverse: 'crosswalk',
} as const

export const FEED_TRAITS = {
  sst: {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'publisher_effective_date',
    quarterlyEditions: true,
    label: 'Streamlined Sales Tax rate file',
    filingCodes: { state: SST_CODE, county: SST_CODE, city: SST_CODE, district: SST_CODE },
  },
  cdtfa: {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: false,
    label: 'CDTFA rate workbook',
    filingCodes: {},
  },
  'idor-ordmache': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'publisher_effective_date',
    quarterlyEditions: false,
    label: 'IDOR ordmache rate file',
    filingCodes: { district: inCode('IDOR location code') },
  },
  'tx-comptroller': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: true,
    label: 'Texas Comptroller EDI rate file',
    filingCodes: { county: { system: TX_SYSTEM, kept: 'own' }, city: inCode(TX_SYSTEM), district: inCode(TX_SYSTEM) },
  },
  'fl-dor-surtax': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: false,
    label: 'Florida DOR discretionary sales surtax rates',
    filingCodes: {},
  },
  'az-dor-tpt': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'publisher_effective_date',
    quarterlyEditions: false,
    label: 'Arizona DOR TPT rate table',
    filingCodes: { county: { system: AZ_SYSTEM, kept: 'own' }, city: inCode(AZ_SYSTEM) },
  },
  'va-tax': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'no_published_date',
    quarterlyEditions: false,
    label: 'Virginia Tax rate workbook',
    filingCodes: {},
  },
  'mo-dor': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: true,
    label: 'Missouri DOR sales and use tax rate chart',
    filingCodes: {},
  },
  'al-dor': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'publisher_effective_date',
    quarterlyEditions: false,
    label: 'Alabama DOR local rates file',
    filingCodes: {},
  },
  'co-dor': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: false,
    label: 'Colorado DOR jurisdiction codes and rates workbook (DR 1002)',
    filingCodes: { city: inCode('Colorado DR 1002 jurisdiction code') },
  },
  'nm-trd-grt': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: false,
    label: 'New Mexico TRD gross receipts tax rates and boundaries',
    filingCodes: { city: inCode('New Mexico GRT location code') },
  },
  'ak-arsstc': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: false,
    label: 'ARSSTC sales tax rate sheet (Alaska)',
    filingCodes: {},
  },
  'ny-dtf-pub718': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: false,
    label: 'NY DTF Publication 718 (sales and use tax rates by jurisdiction)',
    filingCodes: { county: NY_CODE, city: NY_CODE },
  },
  'sc-dor': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'publisher_effective_date',
    quarterlyEditions: false,
    label: 'SCDOR Sales & Use Tax Index with ST-500 and ST-575',
    filingCodes: {},
  },
  'la-remote-sellers': {
    ...OFFICIAL_PER_PLACE,
    effectiveDateBasis: 'edition_only',
    quarterlyEditions: false,
    label: 'Louisiana Remote Sellers Commission rate lookup (parish by parish)',
    filingCodes: { county: LA_CODE, city: LA_CODE },
  },
  'avalara-zip5': {
    sourceKind: 'aggregator',
    placeModel: 'name',
    effectiveDateBasis: 'edition_only',
    confidenceCeiling: 'medium',
    statewide: false,
    zipUniverse: 'edition_rows',
    quarterlyEditions: false,
    label: 'Avalara ZIP5 table (an aggregator estimate, not an official source)',
    filingCodes: {},
  },
  statutory: {
    sourceKind: 'statute',
    placeModel: 'none',
    effectiveDateBasis: 'no_published_date',
    confidenceCeiling: 'medium',
    statewide: true,
    zipUniverse: 'crosswalk',
    quarterlyEditions: false,
    label: 'state statute',
    filingCodes: {},
  },
  'statute-table': {
    sourceKind: 'statute',
    placeModel: 'geoid',
    effectiveDateBasis: 'publisher_effective_date',
    confidenceCeiling: 'high',
    statewide: false,
    zipUniverse: 'crosswalk',
    quarterlyEditions: false,
    label: 'state statutes and local levies (a dated table of the descriptor, each row citing its source)',
    filingCodes: {},
  },
} as const satisfies Record<FeedKind, FeedTraits>

export const feedTraits = (feed: FeedKind): FeedTraits => FEED_TRAITS[feed]

const SOURCE_KIND_WORDS = { official: 'official files', aggregator: 'an aggregator drop', statute: 'the rules table' } as const satisfies Record<SourceKind, string>

/** Every feed kind, grouped by who stands behind it, for schema descriptions: `sst, cdtfa, … (official files), avalara-zip5 (an aggregator drop), statutory (the rules table)`. */
export const FEED_KINDS_IN_WORDS = SourceKind.options
  .map((source) => `${FeedKind.options.filter((kind) => FEED_TRAITS[kind].sourceKind === source).join(', ')} (${SOURCE_KIND_WORDS[source]})`)
  .join(', ')

/** One rate for every address of the state: a statewide feed in a `static` state (never refreshed from a file). */
export const isStatewide = (record: { feed: FeedKind; klass: string }): boolean => FEED_TRAITS[record.feed].statewide && record.klass === 'static'
