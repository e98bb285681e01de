// `make audit`: in every state served from an official file for which an aggregator edition is also
// held (CA, GA, MN, WI; IL once its official feed is in service), how the aggregator's ZIP figures
// compare with the official rate of the place covering each ZIP (the service's default answer), and
// why they differ where they do.
import type { RateIndex, ZipEntry } from '../../snapshot-contract/rate-index.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import { placeMatchKey } from '../../snapshot-contract/place-names.ts'
import { usualSpecialByCounty } from '../feeds/aggregator-defaults.ts'
import type { AvalaraRow } from '../feeds/aggregator-drop.ts'
import { leadingKey, regionWords } from '../feeds/region-names.ts'

/**
 * Why an aggregator figure differs from the official rate of the ZIP's covering place:
 *   edition           it is the official rate of that place on the aggregator edition's date
 *   neighbour_region  it is the official rate of another place: one sharing the ZIP, or the one the
 *                     aggregator's tax region is named for, in the ZIP's county
 *   unplaced_tax      it exceeds the official rate by a local tax the official feed could not bind
 *                     to ZIPs (one that may lie in the ZIP's county, or all of them together): Minnesota's
 *                     regional transit and housing taxes
 *   sub_zip_district  it exceeds the official rate by no more than the row's special-district part,
 *                     which is above the usual special rate of the county's rows
 *   other             none of these
 */
export const DISAGREEMENT_CLASSES = ['edition', 'neighbour_region', 'unplaced_tax', 'sub_zip_district', 'other'] as const
export type DisagreementClass = (typeof DISAGREEMENT_CLASSES)[number]

export type AuditedZip = {
  state: string
  zip: string
  uspsCity: string
  /** the covering place (the official default candidate's place), '' when unincorporated */
  officialPlace: string
  official: number
  region: string
  aggregator: number
  /** the aggregator's figure after the service's choice rules (feeds/aggregator-defaults.ts) */
  aggregatorDefault: number
  class: DisagreementClass | null
}

export type StateAudit = {
  state: string
  officialFeed: string
  officialEdition: string
  aggregatorEdition: string
  zips: AuditedZip[]
}

export type AuditInput = {
  state: string
  index: RateIndex
  officialFeed: string
  officialEdition: string
  /** the date official rates are read on */
  asOf: string
  rows: AvalaraRow[]
  /** the same rows compiled by the aggregator feed (with its choice rules) */
  compiled: FeedResult
  aggregatorEdition: { edition: string; editionDate: string }
  /** the official feed's taxes it could not bind to ZIPs (manifest `unplaced`), in 1e-5 units */
  unplaced: { rate: number; counties: string[] | null; until: string | null }[]
}

const byWeight = <T extends { weight: number }>(list: T[]): T | undefined => [...list].sort((a, b) => b.weight - a.weight)[0]

/** ZIP → combined rate of its highest-weight candidate in a compiled aggregator edition. */
export function defaultRates(compiled: FeedResult): Map<string, number> {
  const rates = new Map(compiled.jurisdictions.map((j) => [`${j.level}|${j.code}`, j.rate]))
  const candidatesByZip = new Map<string, FeedResult['candidates']>()
  for (const c of compiled.candidates) {
    const list = candidatesByZip.get(c.zip)
    if (list) list.push(c)
    else candidatesByZip.set(c.zip, [c])
  }
  const defaults = new Map<string, number>()
  for (const [zip, list] of candidatesByZip) defaults.set(zip, byWeight(list)!.stack.reduce((sum, ref) => sum + (rates.get(`${ref.level}|${ref.code}`) ?? 0), 0))
  return defaults
}

/** Per ZIP of `input.rows` the official index also serves: the figures compared and, where they differ, the class. */
export function auditState(input: AuditInput): StateAudit {
  const { index, state, asOf } = input
  const entries = new Map<string, ZipEntry>()
  for (const i of index.entriesOfState(state)) {
    const entry = index.entryAt(i)
    entries.set(entry.zip, entry)
  }
  // The official rate of each place, by county: ZIP candidates and places with no ZIP of their own.
  const placeRates = new Map<string, number>()
  const notePlace = (county: string | undefined, place: string | undefined, stack: number[]) => {
    const key = `${county ?? ''}|${placeMatchKey(place ?? '')}`
    if (place && !placeRates.has(key)) placeRates.set(key, index.combinedRate(stack, asOf))
  }
  for (const entry of entries.values()) for (const c of entry.candidates) notePlace(c.county?.fips, c.place?.name, c.stack)
  for (const c of index.placeCandidatesOfState(state)) notePlace(c.county?.fips, c.place?.name, c.stack)

  const defaults = defaultRates(input.compiled)

  const countyOf = new Map(input.compiled.candidates.map((c) => [c.zip, c.countyFips]))
  const countySpecial = usualSpecialByCounty(input.rows.map((row) => ({ row, countyFips: countyOf.get(row.zip) ?? null })))
  const zips: AuditedZip[] = []
  for (const row of input.rows) {
    const entry = entries.get(row.zip)
    if (!entry || !defaults.has(row.zip)) continue
    const covering = entry.candidates[0]!
    const official = index.combinedRate(covering.stack, asOf)
    const audited: AuditedZip = {
      state,
      zip: row.zip,
      uspsCity: entry.city,
      officialPlace: covering.place?.name ?? '',
      official,
      region: row.taxRegionName,
      aggregator: row.combinedRate,
      aggregatorDefault: defaults.get(row.zip)!,
      class: null,
    }
    if (row.combinedRate !== official) audited.class = classify(row, entry, official, input, placeRates, countySpecial)
    zips.push(audited)
  }
  return { state, officialFeed: input.officialFeed, officialEdition: input.officialEdition, aggregatorEdition: input.aggregatorEdition.edition, zips }
}

function classify(row: AvalaraRow, entry: ZipEntry, official: number, input: AuditInput, placeRates: Map<string, number>, countySpecial: Map<string | null, number>): DisagreementClass {
  const { index, asOf } = input
  const covering = entry.candidates[0]!
  const then = index.authoritiesOn(covering.stack, input.aggregatorEdition.editionDate)
  if (then.length === covering.stack.length && then.reduce((sum, a) => sum + a.rate, 0) === row.combinedRate) return 'edition'
  if (entry.candidates.slice(1).some((c) => index.combinedRate(c.stack, asOf) === row.combinedRate)) return 'neighbour_region'
  const county = covering.county?.fips ?? ''
  const words = regionWords(row.taxRegionName)
  for (let count = words.length; count > 0; count--) {
    const named = placeRates.get(`${county}|${leadingKey(words, count)}`)
    if (named === undefined) continue
    if (named === row.combinedRate && leadingKey(words, count) !== placeMatchKey(covering.place?.name ?? '')) return 'neighbour_region'
    break
  }
  const excess = row.combinedRate - official
  const mayLieHere = input.unplaced.filter((u) => u.rate > 0 && (!u.counties || u.counties.includes(county)) && (!u.until || u.until >= asOf))
  if (excess > 0 && (mayLieHere.some((u) => u.rate === excess) || mayLieHere.reduce((sum, u) => sum + u.rate, 0) === excess)) return 'unplaced_tax'
  if (excess > 0 && excess <= row.specialRate && row.specialRate > (countySpecial.get(county) ?? 0)) return 'sub_zip_district'
  return 'other'
}

export type AuditSummary = {
  state: string
  zips: number
  aggregatorAgrees: number
  defaultAgrees: number
  byClass: Record<DisagreementClass, number>
}

export function summarizeAudit(audit: StateAudit): AuditSummary {
  const byClass = Object.fromEntries(DISAGREEMENT_CLASSES.map((c) => [c, 0])) as Record<DisagreementClass, number>
  for (const zip of audit.zips) if (zip.class) byClass[zip.class]++
  return {
    state: audit.state,
    zips: audit.zips.length,
    aggregatorAgrees: audit.zips.filter((z) => z.aggregator === z.official).length,
    defaultAgrees: audit.zips.filter((z) => z.aggregatorDefault === z.official).length,
    byClass,
  }
}

const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`)

/** The summary table's rows, one per state and a total. */
export function summaryRows(summaries: AuditSummary[]): (string | number)[][] {
  const total: AuditSummary = {
    state: 'all',
    zips: summaries.reduce((s, x) => s + x.zips, 0),
    aggregatorAgrees: summaries.reduce((s, x) => s + x.aggregatorAgrees, 0),
    defaultAgrees: summaries.reduce((s, x) => s + x.defaultAgrees, 0),
    byClass: Object.fromEntries(DISAGREEMENT_CLASSES.map((c) => [c, summaries.reduce((s, x) => s + x.byClass[c], 0)])) as Record<DisagreementClass, number>,
  }
  return [...summaries, total].map((s) => [s.state, s.zips, percent(s.aggregatorAgrees, s.zips), percent(s.defaultAgrees, s.zips), ...DISAGREEMENT_CLASSES.map((c) => s.byClass[c])])
}

export const SUMMARY_HEADER = ['state', 'zips', 'aggregator = official', 'default = official', ...DISAGREEMENT_CLASSES]

const csvCell = (value: string | number) => (/[",\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value))

/** Every ZIP where the aggregator and the official rate disagree, as CSV (rates as 5-decimal fractions). */
export function disagreementsCsv(audits: StateAudit[], format: (units: number) => string): string {
  const lines = ['state,zip,usps_city,official_place,official_rate,aggregator_region,aggregator_rate,aggregator_default_rate,class']
  for (const audit of audits) {
    for (const z of audit.zips) {
      if (!z.class) continue
      lines.push([z.state, z.zip, z.uspsCity, z.officialPlace, format(z.official), z.region, format(z.aggregator), format(z.aggregatorDefault), z.class].map(csvCell).join(','))
    }
  }
  return `${lines.join('\n')}\n`
}
