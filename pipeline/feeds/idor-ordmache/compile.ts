// Illinois from IDOR's ordmache file (docs/data-sources.md#illinois).
//
// Model. Each record prints the combined general rate of one locality in one county, state share
// included. As for California (cdtfa/workbook.ts), the combined rate is transcribed, not split
// into components (trap P41: IL county = combined − 6.25% − RTA share is a derivation that
// goes wrong): the state level is the statewide 6.25%, and each record becomes one district
// jurisdiction, coded by its location code, at its combined rate minus the statewide rate. County
// and city jurisdictions carry rate 0 so names resolve. Every record keeps its current and prior
// period as two dated versions.
//
// A record flagged Y (the rate varies by address; the file prints zeros, and the address file
// ordmacha has the rates) is answered with what the file supports: its county's own record plus
// the city's increment over the county where the city has an unflagged record in another county
// (that record minus that county's record), else the county's record alone (a lower bound, marked
// `lower_bound`: load-state.ts lets the state's aggregator drop answer such ZIPs when one is at
// hand, lower-bound-defaults.ts). Such answers, and the records printing a rate they flag as
// varying, are listed in `rateVaries`.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRate, JurisdictionRef, PlaceStack, RateVaries, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { placesByMatchKey } from '../../../snapshot-contract/place-names.ts'
import { leftOutOf, leftOutRows } from '../set-aside.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { countyCode, countyMatchKey, placeCode, placeStacksNotes, placeStacksOf, withinZipCandidates } from '../candidate-weights.ts'
import type { OrdmacheFile, OrdmacheRecord } from './rate-file.ts'
import { noCountyNotes, placeBoundCandidates, placeNamedIn } from '../place-bound-candidates.ts'
import { combineSpans, firstDay, mergeSpans, type Span } from '../rate-timeline.ts'

const STATE = 'IL'
const STATE_FIPS = '17'
const COUNTY_RECORD = '5000'
/** IDOR's companion file with the address-specific rates of records flagged Y (not read here). */
export const ORDMACHA_FILE = 'ordmacha-current.txt'
const NOTES_LISTED = 5

export type CompileOrdmacheInput = {
  file: OrdmacheFile
  /** statewide rate in 1e-5 units (IL 6.25% = 6250, from the rules table) */
  stateRate: number
  geography: Geography
}

/** One location code, its listings merged. */
type Locality = {
  code: string
  name: string
  countyFips: string
  isCounty: boolean
  addressRates: boolean
  /** the printed rate is flagged as varying in some period */
  varies: boolean
  spans: Span[]
  lines: number[]
}

/** A Y record's answer; `lowerBound`: the county's record alone, the city's own taxes left out. */
type Estimate = { spans: Span[]; basis: string; lowerBound?: boolean }

/** County number (001–102, alphabetical) → 5-digit FIPS: the n-th county's FIPS code is 2n − 1. */
export const illinoisCountyFips = (countyNumber: number): string => `${STATE_FIPS}${String(2 * countyNumber - 1).padStart(3, '0')}`

export function compileOrdmache({ file, stateRate, geography }: CompileOrdmacheInput): FeedResult {
  const { fileName } = file
  const notes: string[] = [
    `IL model: state level = statewide rate ${formatRate(stateRate)}; each ordmache record (locality × county) carries one district jurisdiction = its combined general rate minus the statewide rate, for its current and prior period`,
    `${fileName}: ${file.records.length} Illinois records of ${file.rowsRead} read; ${file.excluded} records of other states and foreign countries left out (use tax only)`,
    ...file.rejected.slice(0, NOTES_LISTED).map((r) => `${fileName} line ${r.line} rejected: ${r.reason}`),
  ]
  if (file.rejected.length > NOTES_LISTED) notes.push(`${fileName}: ${file.rejected.length} records rejected in all`)

  const localities = mergeListings(file.records, geography, fileName, notes)
  const counties = new Map([...localities.values()].filter((l) => l.isCounty).map((l) => [l.countyFips, l]))

  // Municipal records bound to geography places by name within their county.
  const byKey = placesByMatchKey([...geography.places.values()].filter((place) => place.state === STATE))
  const placeOf = new Map<string, string>()
  for (const locality of localities.values()) {
    if (locality.isCounty) continue
    const place = placeNamedIn(byKey, locality.name, locality.countyFips)
    if (place) placeOf.set(locality.code, place.geoid)
  }

  const jurisdictions: JurisdictionRate[] = []
  const rateVaries: RateVaries[] = []
  const unplaced: UnplacedJurisdiction[] = []
  const add = (level: JurisdictionRate['level'], code: string, name: string, spans: Span[]) => {
    for (const span of spans) jurisdictions.push({ state: STATE, level, code, name, rate: span.rate, from: span.from, to: span.to, source: fileName })
  }
  const localShare = (locality: Locality, spans: Span[]): Span[] =>
    spans.map((span) => {
      if (span.rate < stateRate) throw new Error(`${fileName}: ${locality.code} ${locality.name} rate ${formatRate(span.rate)} from ${span.from} is below the statewide ${formatRate(stateRate)}`)
      return { ...span, rate: span.rate - stateRate }
    })

  const earliest = localities.size ? [...localities.values()].reduce((min, l) => (firstDay(l.spans)! < min ? firstDay(l.spans)! : min), '9999-12-31') : null
  jurisdictions.push({ state: STATE, level: 'state', code: STATE_FIPS, name: 'Illinois', rate: stateRate, from: earliest, to: null, source: fileName })
  for (const county of geography.counties.values()) {
    if (county.state === STATE) jurisdictions.push({ state: STATE, level: 'county', code: countyCode(county.fips), name: county.name, rate: 0, from: null, to: null, source: fileName })
  }

  let knownFrom = earliest
  const districtRef = (code: string): JurisdictionRef => ({ level: 'district', code })
  const estimated = new Map<string, Estimate>()
  for (const locality of localities.values()) {
    if (!locality.addressRates) continue
    const estimate = estimateOf(locality, localities, counties, placeOf)
    if (!estimate) {
      notes.push(`${locality.code} ${locality.name}: rates vary by address and its county has no record; left unplaced`)
      continue
    }
    estimated.set(locality.code, estimate)
  }

  for (const locality of localities.values()) {
    const county = geography.counties.get(locality.countyFips)!
    const name = locality.isCounty ? `${county.name} County unincorporated area local taxes` : `${locality.name} (${county.name} County) local taxes`
    const estimate = estimated.get(locality.code)
    if (locality.addressRates && !estimate) continue
    const spans = estimate ? estimate.spans : locality.spans
    add('district', locality.code, name, localShare(locality, spans))
    const from = firstDay(spans)
    if (from && (knownFrom === null || from > knownFrom)) knownFrom = from
    if (estimate) rateVaries.push({ level: 'district', code: locality.code, name, kind: 'estimated', basis: estimate.basis, ...(estimate.lowerBound ? { lower_bound: true } : {}), exact_source: ORDMACHA_FILE })
    else if (locality.varies) rateVaries.push({ level: 'district', code: locality.code, name, kind: 'published', basis: `${fileName} prints ${formatRate(locality.spans.at(-1)!.rate)} and flags it as varying within the jurisdiction`, exact_source: ORDMACHA_FILE })
  }
  const rated = new Set(jurisdictions.filter((j) => j.level === 'district').map((j) => j.code))

  // Cities: a rate-0 city jurisdiction per matched place; the record's district in each county it has one.
  const recordOf = new Map<string, string>()
  for (const [code, geoid] of placeOf) {
    const locality = localities.get(code)!
    if (!rated.has(code)) continue
    recordOf.set(`${geoid}|${locality.countyFips}`, code)
  }
  for (const geoid of new Set([...recordOf.keys()].map((key) => key.split('|')[0]!))) {
    jurisdictions.push({ state: STATE, level: 'city', code: placeCode(geoid), name: geography.places.get(geoid)!.name, rate: 0, from: null, to: null, source: fileName })
  }

  const stateRef: JurisdictionRef = { level: 'state', code: STATE_FIPS }
  const cityTail = (geoid: string, fips: string): JurisdictionRef[] | null => {
    const code = recordOf.get(`${geoid}|${fips}`)
    return code ? [{ level: 'city', code: placeCode(geoid) }, districtRef(code)] : null
  }
  const countyTail = (fips: string): JurisdictionRef[] => {
    const record = counties.get(fips)
    return record && rated.has(record.code) ? [districtRef(record.code)] : []
  }
  const { candidates, usedPlaces, usedCounties, noCounty, unlistedPlace } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    countyTail,
    placeTail: (geoid, fips) => {
      const refs = cityTail(geoid, fips)
      return refs ? { name: geography.places.get(geoid)!.name, refs } : null
    },
  })

  // A place part no ZIP answers keeps its stack for lookups by name or point; its tax stays unplaced for ZIP answers.
  const placeStacks: PlaceStack[] = []
  for (const [key, code] of recordOf) {
    if (usedPlaces.has(key)) continue
    const [geoid, fips] = key.split('|') as [string, string]
    const place = geography.places.get(geoid)!
    placeStacks.push(...placeStacksOf(geography, { geoid, name: place.name, counties: [fips] }, () => [stateRef, { level: 'county', code: countyCode(fips) }, ...cityTail(geoid, fips)!]))
    unplaced.push(unplacedOf(jurisdictions, code, `matched geography place ${geoid}, but no ZIP of county ${fips} is bound to it`, [fips]))
  }
  notes.push(...placeStacksNotes(placeStacks))
  const withPlaces = withinZipCandidates(geography, candidates, placeStacks)
  for (const locality of localities.values()) {
    if (!rated.has(locality.code)) continue
    if (locality.isCounty && !usedCounties.has(locality.countyFips)) {
      unplaced.push(unplacedOf(jurisdictions, locality.code, `no ZIP of county ${locality.countyFips} lies outside a rated place in geography`, [locality.countyFips]))
    }
    if (!locality.isCounty && !placeOf.has(locality.code)) {
      unplaced.push(unplacedOf(jurisdictions, locality.code, `no geography place named ${locality.name} in county ${locality.countyFips}`, [locality.countyFips]))
    }
  }

  notes.push(...noCountyNotes(STATE, noCounty))
  if (unlistedPlace) notes.push(`${unlistedPlace} ZIP-county parts are bound to a place with no record in this county: the county's record used`)
  if (rateVaries.length) {
    const estimates = rateVaries.filter((r) => r.kind === 'estimated').length
    notes.push(`${estimates} records flagged Y (rates vary by address, exact in ${ORDMACHA_FILE}) answered with their county's record plus the city's increment where it has an unflagged record elsewhere; ${rateVaries.length - estimates} print a rate flagged as varying`)
  }

  const effectiveThrough = [...localities.values()].reduce((max, l) => (l.spans.at(-1)!.from > max ? l.spans.at(-1)!.from : max), '')
  return {
    jurisdictions,
    candidates: withPlaces,
    placeStacks,
    unplaced,
    edition: effectiveThrough,
    effectiveThrough,
    effectiveDateBasis: 'publisher_effective_date',
    rowsRead: file.rowsRead,
    rowsParsed: file.records.length,
    files: [],
    notes,
    ...(knownFrom && knownFrom !== earliest ? { coverageFrom: knownFrom } : {}),
    rateVaries,
    // records that could not be read carry a tax the answers do not include: every answer says so
    ...leftOutOf(leftOutRows('rows set aside', "a record that does not fit the file's layout: its tax is not read", file.rejected.map((r) => ({ where: `line ${r.line}`, reason: r.reason, window: { from: null, to: null } })))),
  }
}

/**
 * Location codes with their listings merged: a code listed twice (100-0001-1, Marion, as at the
 * source) is one locality when both listings agree on every day they share (trap P21); a
 * disagreement, or a county name that is not the geography's county of that number, fails the file.
 */
function mergeListings(records: OrdmacheRecord[], geography: Geography, fileName: string, notes: string[]): Map<string, Locality> {
  const localities = new Map<string, Locality>()
  for (const record of records) {
    const countyFips = illinoisCountyFips(record.countyNumber)
    const county = geography.counties.get(countyFips)
    if (!county) throw new Error(`${fileName} line ${record.line}: county number ${record.countyNumber} is FIPS ${countyFips}, which the geography does not hold`)
    if (countyMatchKey(county.name) !== countyMatchKey(record.countyName)) {
      throw new Error(`${fileName} line ${record.line}: county number ${record.countyNumber} is named ${record.countyName}, but FIPS ${countyFips} is ${county.name} (county numbering changed?)`)
    }
    const spans = record.periods.map(({ from, to, rate }) => ({ from, to, rate }))
    const varies = record.periods.some((p) => p.varies)
    const existing = localities.get(record.code)
    if (!existing) {
      localities.set(record.code, { code: record.code, name: record.name, countyFips, isCounty: record.locality === COUNTY_RECORD, addressRates: record.addressRates, varies, spans, lines: [record.line] })
      continue
    }
    const listed = `${record.code} is listed on lines ${[...existing.lines, record.line].join(' and ')}`
    if (existing.name !== record.name || existing.countyFips !== countyFips || existing.addressRates !== record.addressRates) {
      throw new Error(`${fileName}: ${listed} as different localities (${existing.name} / ${record.name})`)
    }
    const merged = mergeSpans(existing.spans, spans)
    if (!merged.ok) {
      throw new Error(`${fileName}: ${listed} with different rates on ${merged.day} (${formatRate(merged.rates[0])} and ${formatRate(merged.rates[1])})`)
    }
    existing.spans = merged.spans
    existing.varies ||= varies
    existing.lines.push(record.line)
    notes.push(`${fileName}: ${listed} (as at the source); the listings agree on every day both cover and are merged`)
  }
  return localities
}

/** What the file supports for a record flagged Y: its county's record, plus the city's increment over another county where it has an unflagged record. */
function estimateOf(locality: Locality, localities: Map<string, Locality>, counties: Map<string, Locality>, placeOf: Map<string, string>): Estimate | null {
  const county = counties.get(locality.countyFips)
  if (!county) return null
  const since = firstDay(locality.spans)
  const geoid = placeOf.get(locality.code)
  const others = [...localities.values()].filter(
    (other) =>
      !other.isCounty &&
      !other.addressRates &&
      other.countyFips !== locality.countyFips &&
      (geoid ? placeOf.get(other.code) === geoid : other.name === locality.name) &&
      counties.has(other.countyFips),
  )
  for (const other of others) {
    const otherCounty = counties.get(other.countyFips)!
    const increment = combineSpans([other.spans, otherCounty.spans], ([city, rest]) => city! - rest!)
    if (increment.some((span) => span.rate < 0)) continue
    const spans = combineSpans([county.spans, other.spans, otherCounty.spans], ([own, city, rest]) => own! + city! - rest!, since)
    if (spans.length === 0) continue
    return { spans, basis: `${county.code} (${county.name}) plus the city's increment from ${other.code} minus ${otherCounty.code} (${otherCounty.name}); the rate varies by address` }
  }
  return {
    spans: combineSpans([county.spans], ([own]) => own!, since),
    basis: `${county.code} (${county.name}) only: the city has no unflagged record elsewhere, so its own taxes are not included; the rate varies by address`,
    lowerBound: true,
  }
}

function unplacedOf(jurisdictions: JurisdictionRate[], code: string, reason: string, counties: string[]): UnplacedJurisdiction {
  const versions = jurisdictions.filter((j) => j.level === 'district' && j.code === code)
  const latest = versions.at(-1)!
  return { level: 'district', code, name: latest.name, rate: latest.rate, reason, counties, ...(latest.to ? { until: latest.to } : {}) }
}
