// Louisiana from the Remote Sellers Commission's lookup (docs/data-sources.md#louisiana). Each
// parish's answer lists local rates by domicile: `pp00` is the parish-wide rate, other codes are towns
// and special districts, each the whole local rate there (rows of one domicile add: the French
// Quarter's 0.245% and 5%). A domicile code is keyed by the parish whose answer lists it, since one
// code can carry different rates in two parishes (0108, Eunice, in Acadia and St. Landry).
//
// A parish is bound to its county FIPS by the alphabetical numbering its codes carry: parish pp is
// county 22(2·pp−1) (an inference every example bears out), and its name must be that county's. A
// town binds to the Census place of its name in the parish and answers its domicile's rate, the whole
// local rate there, with no parish layer beside it, so each sale lands on one domicile: the domicile
// code is the filing code of the parish (its `pp00`, the parish outside its towns) and of each town
// (a parish with no parish-wide row has none, its layer being an estimate). A special district has
// no Census area, so it is listed as a tax that may apply in its parish. A parish whose answer has no
// parish-wide row answers outside its towns the least rate of its domiciles, a lower bound said so.
// A parish missing from the drop-down or whose answer could not be read answers the state rate with
// its local taxes named as not included; more than a few such parishes fail the feed (the previous
// data stays).
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, RateVaries, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { placeMatchKey } from '../../../snapshot-contract/place-names.ts'
import { formatRate, parseRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { countyCode, countyMatchKey, JurisdictionTable, placeCode } from '../candidate-weights.ts'
import { boundCityTail, noCountyNotes, placeBoundCandidates, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'
import type { LaCrawl, LaRateRow } from './lookup.ts'

const STATE = 'LA'
const STATE_FIPS = '22'
export const LA_PARISHES = 64
/** Parishes that may go unread in a run before the feed fails. */
export const MOST_UNREAD_PARISHES = 4
const NOT_INCLUDED = 'local'

/** "Acadia Parish (0100)" → parish number 1 → county 22001. */
export const parishFips = (code: string): string => `${STATE_FIPS}${String(Number(code.slice(0, 2)) * 2 - 1).padStart(3, '0')}`
/** A county of the geography as a parish is named (Census names most "X Parish"). */
const parishLabel = (name: string) => (/parish$/i.test(name) ? name : `${name} Parish`)
const townKey = (name: string) => placeMatchKey(name.replace(/^(city|town|village) of\s+/i, '').replace(/\s+(city|town|village)$/i, ''))

export type CompileLaInput = { crawl: LaCrawl; fileName: string; stateRate: number; geography: Geography; effective: string }

export function compileLaLookup({ crawl, fileName, stateRate, geography, effective }: CompileLaInput): FeedResult {
  const parishes = [...geography.counties.values()].filter((c) => c.state === STATE)
  const table = new JurisdictionTable({ state: STATE, from: effective, to: null, source: `${fileName} (period ${crawl.periodLabel})` })
  const stateRef = table.add('state', STATE_FIPS, 'Louisiana', stateRate)
  const byKey = statePlacesByKey(geography, STATE)
  const countyRefOf = new Map<string, JurisdictionRef>()
  const countyTailOf = new Map<string, JurisdictionRef[]>()
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef }>()
  const unplaced: UnplacedJurisdiction[] = []
  const rateVaries: RateVaries[] = []
  const unread: string[] = []
  const listed = new Set<string>()
  let rowsRead = 0

  for (const answer of crawl.parishes) {
    const fips = parishFips(answer.code)
    const county = geography.counties.get(fips)
    const parishName = answer.name.replace(/\s*\(\d{4}\)$/, '')
    const named = parishName.replace(/\s+parish$/i, '')
    if (!county || county.state !== STATE || countyMatchKey(county.name.replace(/\s+parish$/i, '')) !== countyMatchKey(named)) {
      throw new Error(`${fileName}: "${answer.name}" (${answer.code}) is not parish ${fips} (${county?.name ?? 'none'}) of the geography: the parish numbering is not the alphabetical one assumed`)
    }
    listed.add(fips)
    if (!answer.rows) {
      unread.push(`${answer.name}: ${answer.problem}`)
      continue
    }
    rowsRead += answer.rows.length
    const byDomicile = new Map<string, { name: string; rate: number }>()
    for (const row of answer.rows) {
      const rate = localUnits(row, answer.name, fileName)
      const seen = byDomicile.get(row.domicile)
      byDomicile.set(row.domicile, { name: seen?.name ?? row.name, rate: (seen?.rate ?? 0) + rate })
    }
    const baseCode = `${answer.code.slice(0, 2)}00`
    const base = byDomicile.get(baseCode)
    const least = Math.min(...[...byDomicile.values()].map((d) => d.rate))
    const parishRate = base?.rate ?? least
    const countyRef = table.add('county', countyCode(fips), county.name, parishRate, base ? baseCode : undefined)
    countyRefOf.set(fips, countyRef)
    if (!base) rateVaries.push({ level: 'county', code: countyCode(fips), name: county.name, kind: 'estimated', lower_bound: true, exact_source: crawl.page, basis: `${answer.name} lists no parish-wide (${baseCode}) rate: outside its towns, the least local rate of its ${byDomicile.size} domiciles (${formatRate(least)})` })
    for (const [domicile, { name, rate }] of byDomicile) {
      if (domicile === baseCode) continue
      const increment = rate - parishRate
      if (increment < 0) throw new Error(`${fileName}: ${name} (${domicile}) in ${answer.name} at ${formatRate(rate)} is below the parish's ${formatRate(parishRate)}`)
      const place = placeNamedIn(byKey, name.replace(/^(city|town|village) of\s+/i, ''), fips)
      const code = `${domicile}-${countyCode(fips)}`
      if (place && place.kind === 'incorporated' && townKey(name) === townKey(place.name)) {
        cityOf.set(`${place.geoid}|${fips}`, { name: place.name, ref: table.add('city', `${placeCode(place.geoid)}-${code}`, name, rate, domicile) })
      } else if (increment > 0) {
        unplaced.push({ level: 'district', code, name: `${name} (${domicile})`, rate: increment, counties: [fips], reason: `a special district or town of ${parishName} with no Census area: an address lookup places it` })
      }
    }
  }
  const missing = parishes.filter((p) => !listed.has(p.fips))
  for (const parish of missing) unread.push(`${parishLabel(parish.name)}: missing from the lookup's parish drop-down`)
  if (unread.length > MOST_UNREAD_PARISHES) throw new Error(`${fileName}: ${unread.length} of ${LA_PARISHES} parishes could not be read (${unread.slice(0, 4).join('; ')}): more than ${MOST_UNREAD_PARISHES}, so the lookup is not answering`)
  // A parish not read this run answers the state rate, its local taxes named as not included.
  const unreadParishes = parishes.filter((p) => !countyRefOf.has(p.fips))
  if (unreadParishes.length) {
    table.add('district', NOT_INCLUDED, 'Louisiana parish and municipal sales taxes (not included)', 0)
    rateVaries.push({ level: 'district', code: NOT_INCLUDED, name: 'parish and municipal sales taxes', kind: 'unpublished', lower_bound: true, exact_source: crawl.page, basis: `the Louisiana state rate only: ${unreadParishes.map((p) => parishLabel(p.name)).join(', ')} could not be read from the lookup this run, so its parish and municipal sales taxes are not included` })
  }
  const notIncluded: JurisdictionRef = { level: 'district', code: NOT_INCLUDED }

  const { candidates, noCounty } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    // Inside a town its domicile's rate is the whole local rate: no parish layer beside it.
    countyRef: (fips, geoid) => (geoid !== null ? null : countyRefOf.get(fips) ?? null),
    countyTail: (fips) => (countyRefOf.has(fips) ? [] : [notIncluded]),
    placeTail: boundCityTail(cityOf),
  })
  const notes = [
    `LA model: the Remote Sellers Commission's lookup, filing period ${crawl.periodLabel} (${crawl.period}): ${crawl.parishes.length} parishes answered, ${rowsRead} rate rows; each domicile's local rate keyed by the parish listing it; towns bound to Census places (${cityOf.size} above their parish's rate), special districts listed as unplaced (${unplaced.length}): only an address lookup places them`,
    ...unread.map((u) => `warning: ${u}; that parish answers the state rate with its local taxes named as not included`),
  ]
  notes.push(...noCountyNotes(STATE, noCounty))
  return {
    jurisdictions: table.list(),
    candidates,
    unplaced,
    ...(rateVaries.length ? { rateVaries } : {}),
    edition: effective,
    effectiveThrough: effective,
    effectiveDateBasis: 'edition_only',
    rowsRead,
    rowsParsed: rowsRead,
    files: [],
    notes,
  }
}

function localUnits(row: LaRateRow, parish: string, fileName: string): number {
  const parsed = parseRatePercent(row.rate.replace('%', ''))
  // A local rate of 10% or more is a combined rate where a local one is expected.
  if (!parsed.ok || parsed.units >= 10000) throw new Error(`${fileName}: ${parish}, ${row.name} (${row.domicile}): ${row.rate} is no local rate`)
  return parsed.units
}
