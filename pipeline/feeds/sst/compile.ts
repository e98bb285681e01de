// The SST feed for one state: rate file (+ optional boundary file) + geography → FeedResult.
// Rates keep every effective window; ZIP candidates are date-free stacks of (level, code).
import type { Geography, GeoZip } from '../../../snapshot-contract/geography-model.ts'
import { LEVELS, PLUS4_RECORDS, type AddressRangeTable, type FeedResult, type JurisdictionRate, type JurisdictionRef, type Level, type PlaceStack, type Plus4Binding, type Plus4Ranges, type UnplacedJurisdiction, type ZipCandidate } from '../../../snapshot-contract/model.ts'
import { dayNumber, OPEN_TO } from '../../../snapshot-contract/format.ts'
import { plus4Order, Plus4RangeBuilder } from '../../../snapshot-contract/plus4-ranges.ts'
import { AddressRangeBuilder } from '../../../snapshot-contract/address-ranges.ts'
import { addressRangeOf } from './address-ranges.ts'
import { candidatesByCounty, countyCode, countyName, placeCode, placeShares, placeStacksNotes, placeStacksOf, postalNameSpread, withinZipCandidates, zipsInState } from '../candidate-weights.ts'
import {
  assertBoundaryFileHealthy,
  expandZipRange,
  isActiveOn,
  plus4RangeWithin,
  readBoundaryFile,
  readBoundaryLines,
  type BoundaryFileStats,
  type BoundaryRow,
  type Triplet,
} from './boundary-file.ts'
import type { DistrictAreaTable } from '../../../sources/district-area.ts'
import { bindDistrictAreas } from './district-areas.ts'
import { parseSstFileName, type SstFileName } from './file-names.ts'
import { assertRateFileHealthy, parseRateFile, type SstRateRow } from './rate-file.ts'
import { conflictNotes, contradictionError, findRowConflicts } from '../rate-row-conflicts.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { codePattern, COMMON_SST_READING, ruleFor, type SstReading, type SstRowRead, type SstRowRule } from '../../../sources/sst-reading.ts'

export type SstStateInput<Lines = string | Iterable<string>> = {
  /** e.g. `GA` */
  state: string
  stateName: string
  rateFile: { name: string; text: string }
  /** whole text or its lines */
  boundaryFile?: { name: string; lines: Lines }
  geography: Geography
  /** what the state's type codes mean and its own rules (trap P13); the common reading when absent */
  reading?: SstReading
  /** without a boundary file, district codes are bound to the counties these facts give them */
  districtAreas?: DistrictAreaTable
}

/** Whole-state `Z` rows exist (IN, KY, MI, NJ, RI); the state gate, not a width cap, keeps them safe. */
const ZIP_SPACE = 100_000
const PLUS4_SPACE = 10_000
const NOTES_LISTED = 5

/** One binding of a boundary row: 3-digit county, 5-digit place, district codes. */
type Combo = { countyFips: string | null; placeFips: string | null; districts: string[] }
/**
 * `covered`: how many of the ZIP's +4 codes some `4` row lists; `address`: combinations of `A` rows
 * with how many address ranges carry each (used where no Z or 4 row binds the ZIP)
 */
type ZipBindings = { z: Map<string, Combo>; four: Map<string, { combo: Combo; width: number }>; covered: number; address: Map<string, { combo: Combo; ranges: number }> }
type RateEntry = { level: Level; code: string; rows: SstRateRow[] }

type Prepared = {
  input: SstStateInput<unknown>
  fileName: SstFileName
  stateFips: string
  quarterStart: string
  jurisdictions: JurisdictionRate[]
  rowsByRef: Map<string, RateEntry>
  zipsOfState: GeoZip[]
  rowsRead: number
  rowsParsed: number
  latestFrom: string
  notes: string[]
  reading: SstReading
  /** district codes whose area is a county, by county FIPS (5 digits) */
  countyDistricts: Map<string, string[]>
  /** district codes whose rate replaces the state rate where they apply */
  replacesState: Set<string>
}

/** `combos`: every binding of a boundary row, in first-seen order; `ranges`: the Z and 4 rows' +4 ranges and `addresses` the A rows' address ranges, bound to `combos` */
type Bound = { byZip: Map<string, ZipBindings>; districtCodes: Set<string>; stats: BoundaryFileStats; latestFrom: string; combos: Combo[]; ranges: Plus4Ranges; addresses: AddressRangeTable }

const refKey = (level: Level, code: string) => `${level}:${code}`

/** Compiles one SST state; the boundary file, if any, is given as text or sync lines. */
export function compileSstState(input: SstStateInput): FeedResult {
  const prepared = prepare(input)
  if (!input.boundaryFile) return assemble(prepared, null)
  const binder = new BoundaryBinder(prepared, input.boundaryFile.name)
  const stats = readBoundaryLines(input.boundaryFile.lines, (row) => binder.add(row))
  return assemble(prepared, binder.finish(stats))
}

/** Same as `compileSstState`, streaming the boundary file (e.g. a `readline` interface over a 380 MB file). */
export async function compileSstStateStreaming(
  input: SstStateInput<string | Iterable<string> | AsyncIterable<string>>,
): Promise<FeedResult> {
  const prepared = prepare(input)
  if (!input.boundaryFile) return assemble(prepared, null)
  const binder = new BoundaryBinder(prepared, input.boundaryFile.name)
  const stats = await readBoundaryFile(input.boundaryFile.lines, (row) => binder.add(row))
  return assemble(prepared, binder.finish(stats))
}

/** Rate file → jurisdictions. Throws on an unhealthy file, a file for another state, or unknown type codes. */
function prepare(input: SstStateInput<unknown>): Prepared {
  const { state, rateFile } = input
  const reading = input.reading ?? COMMON_SST_READING
  const fileName = parseSstFileName(rateFile.name)
  if (!fileName || fileName.kind !== 'rate' || fileName.state !== state) {
    throw new Error(`${rateFile.name} is not an SST rate file name for ${state}`)
  }
  const rates = parseRateFile(rateFile.text)
  assertRateFileHealthy(rates, rateFile.name)

  const ruled = rates.rows.map((row) => ({ row, rule: ruleFor(reading, row.typeCode, row.code) }))
  const unknown = ruled.filter(({ rule }) => !rule).map(({ row }) => row)
  if (unknown.length > 0) {
    const lines = unknown.slice(0, NOTES_LISTED).map((row) => row.line).join(', ')
    throw new Error(`${rateFile.name}: unknown jurisdiction type codes ${summarise(unknown.map((row) => row.typeCode))} (lines ${lines}); add them to the state's SST reading (trap P13)`)
  }
  const byRule = groupByRule(ruled as { row: SstRateRow; rule: SstRowRule }[])
  const undecoded = [...byRule].filter(([rule]) => rule.read === 'undecoded')
  if (undecoded.length > 0) {
    const described = undecoded.map(([rule, rows]) => `${ruleRows(rule, rows)}: ${rule.why}`).join('; ')
    throw new Error(`${rateFile.name}: cannot be read safely, ${described}; rather than publish a doubled or missing layer the state fails (its next feed serves)`)
  }
  const stateFips = rates.rows[0].stateFips
  const foreign = rates.rows.find((row) => row.stateFips !== stateFips)
  if (foreign) throw new Error(`${rateFile.name} line ${foreign.line}: state FIPS ${foreign.stateFips}, file is for ${stateFips}`)
  const geographyCounty = [...input.geography.counties.values()].find((county) => county.state === state)
  if (geographyCounty && !geographyCounty.fips.startsWith(stateFips)) {
    throw new Error(`${rateFile.name}: state FIPS ${stateFips} but ${state} counties in geography start ${geographyCounty.fips.slice(0, 2)}`)
  }

  const readNotes: string[] = []
  const countyDistricts = new Map<string, string[]>()
  const replacesState = new Set<string>()
  const levelOf = new Map<SstRateRow, Level>()
  for (const [rule, rows] of byRule) {
    if (rule.why) readNotes.push(`${rateFile.name}: ${ruleRows(rule, rows)} read as ${rule.read}: ${rule.why}`)
    if (rule.read === 'excluded') continue
    for (const row of rows) {
      if (rule.read === 'county-district') {
        const countyFips = stateFips + codePattern(rule.codes!).exec(row.code)![1]
        if (!input.geography.counties.has(countyFips)) continue
        const codes = countyDistricts.get(countyFips) ?? []
        if (!codes.includes(row.code)) countyDistricts.set(countyFips, [...codes, row.code])
      }
      if (rule.read === 'replaces-state') replacesState.add(row.code)
      levelOf.set(row, isLevel(rule.read) ? rule.read : 'district')
    }
    const notCounties = rule.read === 'county-district' ? [...new Set(rows.filter((row) => !levelOf.has(row)).map((row) => row.code))] : []
    if (notCounties.length > 0) readNotes.push(`${rateFile.name}: type-${rule.type} codes ${notCounties.join(', ')} name no county of the geography: kept out`)
  }
  const readRows = rates.rows.filter((row) => levelOf.has(row))
  if (readRows.length === 0) throw new Error(`${rateFile.name}: no row is read as a tax layer by the state's SST reading`)

  // Repeated rows: collapsed when they agree, the state failed when they contradict.
  const conflicts = findRowConflicts(readRows, (row) => ({
    jurisdiction: refKey(levelOf.get(row)!, levelOf.get(row) === 'state' ? row.stateFips : row.code),
    from: row.from,
    to: row.to,
    rates: [row.generalIntra, row.generalInter, row.foodIntra, row.foodInter],
    where: `line ${row.line}`,
  }))
  if (conflicts.contradictions.length > 0) {
    throw contradictionError(rateFile.name, conflicts.contradictions, (f) => `${f.jurisdiction} at ${f.rates.map((r) => (r === null ? 'blank' : formatRate(r))).join('/')}`)
  }
  const rows = conflicts.kept

  const rowsByRef = new Map<string, RateEntry>()
  const jurisdictions = rows.map((row): JurisdictionRate => {
    const level = levelOf.get(row)!
    const code = level === 'state' ? row.stateFips : row.code
    const entry = rowsByRef.get(refKey(level, code)) ?? { level, code, rows: [] }
    entry.rows.push(row)
    rowsByRef.set(refKey(level, code), entry)
    // The general intrastate rate (field 4) is the rate a ZIP answer carries.
    const name = jurisdictionName(level, code, stateFips, input)
    return { state, level, code, name, rate: row.generalIntra, from: row.from, to: row.to, source: rateFile.name }
  })

  const notes = [
    `${rateFile.name}: ${rates.rows.length} of ${rates.rowsRead} rate rows parsed`,
    `${rateFile.name}: type codes seen ${summarise(rates.rows.map((row) => row.typeCode))}`,
    ...rates.rejected.slice(0, NOTES_LISTED).map((r) => `${rateFile.name} line ${r.line} rejected: ${r.reason}`),
    ...readNotes,
    ...conflictNotes(rateFile.name, conflicts),
  ]
  if (!rowsByRef.has(refKey('state', stateFips))) notes.push(`${rateFile.name}: no state row; stacks carry local levels only`)
  return {
    input,
    fileName,
    stateFips,
    quarterStart: `${fileName.year}-${String(fileName.quarter * 3 - 2).padStart(2, '0')}-01`,
    jurisdictions,
    rowsByRef,
    zipsOfState: zipsInState(input.geography, state),
    rowsRead: rates.rowsRead,
    rowsParsed: rows.length,
    latestFrom: rows.reduce((latest, row) => (row.from > latest ? row.from : latest), ''),
    notes,
    reading,
    countyDistricts,
    replacesState,
  }
}

const isLevel = (read: SstRowRead): read is Level => (LEVELS as readonly string[]).includes(read)

/** Rows grouped by the rule that reads them. */
function groupByRule(ruled: { row: SstRateRow; rule: SstRowRule }[]): Map<SstRowRule, SstRateRow[]> {
  const groups = new Map<SstRowRule, SstRateRow[]>()
  for (const { row, rule } of ruled) {
    const rows = groups.get(rule)
    if (rows) rows.push(row)
    else groups.set(rule, [row])
  }
  return groups
}

/** "12 type-63 rows coded 98xxx (e.g. 98001, 98003)". */
function ruleRows(rule: SstRowRule, rows: SstRateRow[]): string {
  const codes = [...new Set(rows.map((row) => row.code))]
  return `${rows.length} type-${rule.type} rows${rule.codes ? ` coded ${rule.codes}` : ''} (e.g. ${codes.slice(0, NOTES_LISTED).join(', ')})`
}

function jurisdictionName(level: Level, code: string, stateFips: string, input: SstStateInput<unknown>): string {
  if (level === 'state') return input.stateName
  if (level === 'county') return input.geography.counties.get(stateFips + code)?.name ?? ''
  if (level === 'city') return input.geography.places.get(stateFips + code)?.name ?? ''
  // Names only from authoritative tables (trap P36); the rate file has none for districts.
  return `District ${code}`
}

/**
 * Collects, per in-state ZIP, the county/place/district combinations of boundary `Z` and `4`
 * rows that are current or future at the rate file's quarter start (trap P12).
 */
class BoundaryBinder {
  private readonly byZip = new Map<string, ZipBindings>()
  private readonly districtCodes = new Set<string>()
  private readonly foreignZips = new Set<string>()
  private readonly inStateZips: Set<string>
  private readonly skipped = { expired: 0, otherState: 0, locationCodeRows: 0, nonDistrictTriplets: 0, excludedTriplets: 0 }
  private addressRows = 0
  private unreadAddressRanges = 0
  private streetlessAddressRows = 0
  private latestFrom = ''
  private readonly comboIds = new Map<string, number>()
  private readonly combos: Combo[] = []
  private readonly ranges = new Plus4RangeBuilder()
  private readonly addresses = new AddressRangeBuilder()

  constructor(
    private readonly prepared: Prepared,
    private readonly fileName: string,
  ) {
    this.inStateZips = new Set(prepared.zipsOfState.map((zip) => zip.zip))
  }

  add(row: BoundaryRow): void {
    const { skipped } = this
    if (row.to !== null && row.to < this.prepared.quarterStart) return void skipped.expired++
    if (row.stateFips !== this.prepared.stateFips) return void skipped.otherState++
    if (row.from > this.latestFrom) this.latestFrom = row.from
    if (row.locationCodes.length > 0) skipped.locationCodeRows++
    const combo: Combo = { countyFips: row.countyFips, placeFips: row.placeFips, districts: this.districtsOf(row.districts, row.line) }
    const key = [combo.countyFips ?? '', combo.placeFips ?? '', [...combo.districts].sort().join(',')].join('|')
    const window = { from: dayNumber(row.from), to: row.to === null ? OPEN_TO : dayNumber(row.to) }
    // An address row binds its street range in one ZIP (trap P6); a ZIP answer weighs it by range count.
    if (row.type === 'A') {
      if (!this.isInState(row.zipLow)) return
      this.addressRows++
      const address = this.bindingsOf(row.zipLow).address
      const entry = address.get(key) ?? { combo, ranges: 0 }
      entry.ranges++
      address.set(key, entry)
      const range = addressRangeOf(row.address!)
      if (!range) return void this.streetlessAddressRows++
      if (range.side === 'unread') this.unreadAddressRanges++
      this.addresses.push({ zip: Number(row.zipLow), ...range, ...window, binding: this.bindingOf(key, combo) })
      return
    }
    const { zips } = expandZipRange(row, (zip) => this.isInState(zip), ZIP_SPACE)
    const binding = zips.length > 0 ? this.bindingOf(key, combo) : undefined
    for (const zip of zips) {
      const bindings = this.bindingsOf(zip)
      const { low, high } = row.type === 'Z' ? { low: 0, high: PLUS4_SPACE - 1 } : plus4RangeWithin(row, zip)
      this.ranges.push({ zip: Number(zip), low, high, ...window, record: row.type, binding: binding! })
      if (row.type === 'Z') {
        bindings.z.set(key, combo)
        continue
      }
      const entry = bindings.four.get(key) ?? { combo, width: 0 }
      entry.width += high - low + 1
      bindings.four.set(key, entry)
    }
  }

  finish(stats: BoundaryFileStats): Bound {
    assertBoundaryFileHealthy(stats, this.fileName)
    const { skipped, fileName, prepared } = this
    prepared.notes.push(
      `${fileName}: ${stats.rowsParsed} of ${stats.rowsRead} boundary rows parsed (Z ${stats.byType.Z}, 4 ${stats.byType['4']}, A ${stats.byType.A}; unknown types ${JSON.stringify(stats.unknownTypes)})`,
      `${fileName}: ${skipped.expired} rows ended before ${prepared.quarterStart}, ${this.addressRows} current address rows (binding the ZIPs no Z or 4 row binds), ${skipped.otherState} rows for another state`,
    )
    if (this.unreadAddressRanges > 0 || this.streetlessAddressRows > 0) {
      prepared.notes.push(
        `${fileName}: ${this.unreadAddressRanges} address ranges with house numbers, side or unit ranges that cannot be compared make their street's answers ambiguous and give none; ${this.streetlessAddressRows} address rows name no street`,
      )
    }
    if (skipped.locationCodeRows > 0) prepared.notes.push(`${fileName}: ${skipped.locationCodeRows} rows carry type-45 location codes, not treated as districts (trap P8)`)
    if (skipped.nonDistrictTriplets > 0) prepared.notes.push(`${fileName}: ${skipped.nonDistrictTriplets} triplets typed as a non-district level were ignored`)
    if (skipped.excludedTriplets > 0) prepared.notes.push(`${fileName}: ${skipped.excludedTriplets} triplets of codes the state's reading excludes were ignored`)
    if (this.foreignZips.size > 0) {
      prepared.notes.push(`${fileName}: ranges reach ${this.foreignZips.size} ZIPs of other states, not bound (e.g. ${[...this.foreignZips].slice(0, NOTES_LISTED).join(', ')})`)
    }
    const ranges = this.ranges.finish()
    const { covered, conflicts } = sweepPlus4Ranges(ranges)
    for (const [zip, width] of covered) this.byZip.get(String(zip).padStart(5, '0'))!.covered = width
    if (conflicts.length > 0) {
      const examples = conflicts.slice(0, NOTES_LISTED).map(({ zip, low, high }) => `${String(zip).padStart(5, '0')}-${String(low).padStart(4, '0')}…${String(high).padStart(4, '0')}`)
      prepared.notes.push(`${fileName}: ${conflicts.length} +4 ranges overlap a range of another binding in force at the same time (e.g. ${examples.join(', ')}): those ZIP+4s are answered as ambiguous, not exact`)
    }
    return { byZip: this.byZip, districtCodes: this.districtCodes, stats, latestFrom: this.latestFrom, combos: this.combos, ranges, addresses: this.addresses.finish() }
  }

  /** The number of a row's binding, the same for every row binding the same combination. */
  private bindingOf(key: string, combo: Combo): number {
    let binding = this.comboIds.get(key)
    if (binding === undefined) {
      binding = this.combos.push(combo) - 1
      this.comboIds.set(key, binding)
    }
    return binding
  }

  private isInState(zip: string): boolean {
    if (this.inStateZips.has(zip)) return true
    const known = this.prepared.input.geography.zips.get(zip)
    if (known && known.state !== this.prepared.input.state) this.foreignZips.add(zip)
    return false
  }

  private districtsOf(triplets: Triplet[], line: number): string[] {
    return triplets.flatMap((triplet) => {
      const read = ruleFor(this.prepared.reading, triplet.type, triplet.code)?.read
      if (!read || read === 'undecoded') throw new Error(`${this.fileName} line ${line}: unknown district triplet type ${triplet.type} (code ${triplet.code}, trap P13)`)
      if (read === 'excluded') {
        this.skipped.excludedTriplets++
        return []
      }
      if (isLevel(read) && read !== 'district') {
        this.skipped.nonDistrictTriplets++
        return []
      }
      this.districtCodes.add(triplet.code)
      return [triplet.code]
    })
  }

  private bindingsOf(zip: string): ZipBindings {
    let bindings = this.byZip.get(zip)
    if (!bindings) this.byZip.set(zip, (bindings = { z: new Map(), four: new Map(), covered: 0, address: new Map() }))
    return bindings
  }
}

/** Candidates for every in-state ZIP, the unplaced jurisdictions, and the FeedResult. */
function assemble(prepared: Prepared, bound: Bound | null): FeedResult {
  const { input, stateFips, rowsByRef, zipsOfState, notes, reading, replacesState } = prepared
  const { state, geography } = input
  const has = (level: Level, code: string) => rowsByRef.has(refKey(level, code))
  const stateRef: JurisdictionRef[] = has('state', stateFips) ? [{ level: 'state', code: stateFips }] : []
  const countyRef = (code: string | null): JurisdictionRef[] => (code && has('county', code) ? [{ level: 'county', code }] : [])
  const cityRef = (code: string | null): JurisdictionRef[] => (code && has('city', code) ? [{ level: 'city', code }] : [])
  const byArea = bound ? () => [] : districtsByArea(prepared)
  const districtsIn = (countyFips: string | null): JurisdictionRef[] => [
    ...byArea(countyFips),
    ...(countyFips ? (prepared.countyDistricts.get(countyFips) ?? []) : []).map((code) => ({ level: 'district' as const, code })),
  ]
  /**
   * One binding's stack: a special jurisdiction that replaces the state rate takes its place, a
   * county tax levied only outside taxing cities yields to the city's, and county-wide districts join
   * once (a boundary triplet may name one too).
   */
  const stackOf = (countyFips: string | null, cityCode: string | null, districts: JurisdictionRef[]): JurisdictionRef[] => {
    const city = cityRef(cityCode)
    const county = (reading.countyWithinCities ?? 'added') !== 'added' && city.length > 0 ? [] : countyRef(countyFips && countyCode(countyFips))
    const ofCounty = districtsIn(countyFips)
    const fromBoundary = districts.filter((ref) => !ofCounty.some((other) => other.code === ref.code))
    const stateLayer = [...ofCounty, ...fromBoundary].some((ref) => replacesState.has(ref.code)) ? [] : stateRef
    return [...stateLayer, ...county, ...ofCounty, ...city, ...fromBoundary]
  }

  const spread = postalNameSpread(geography)
  const fromGeography = (zip: GeoZip): ZipCandidate[] =>
    candidatesByCounty(geography, zip, state, (countyFips) => {
      const places = countyFips ? zip.places.filter((place) => place.countyFips === countyFips) : []
      if (places.length === 0) return [{ placeFips: null, placeName: '', stack: stackOf(countyFips, null, []) }]
      return placeShares(places, spread, (geoid) => has('city', placeCode(geoid))).map(({ place, share, basis }) => ({
        placeFips: place.geoid,
        placeName: place.name,
        stack: stackOf(countyFips, placeCode(place.geoid), []),
        share,
        ...(basis ? { basis } : {}),
      }))
    })

  /** A boundary row's binding: its county and place, and their stack (districts with no rate row listed apart). */
  const bindingOf = (combo: Combo): Plus4Binding => {
    const countyFips = combo.countyFips && stateFips + combo.countyFips
    const placeGeoid = combo.placeFips && stateFips + combo.placeFips
    const districts = combo.districts.filter((code) => has('district', code)).map((code) => ({ level: 'district' as const, code }))
    return {
      countyFips,
      countyName: countyName(geography, countyFips),
      placeFips: placeGeoid,
      placeName: placeGeoid ? (geography.places.get(placeGeoid)?.name ?? '') : '',
      stack: stackOf(countyFips, combo.placeFips, districts),
      unrated: combo.districts.filter((code) => !has('district', code)),
    }
  }
  const fromBoundary = (zip: GeoZip, bindings: ZipBindings): ZipCandidate[] =>
    weighBindings(bindings).map(({ combo, weight }) => {
      const { unrated: _, ...binding } = bindingOf(combo)
      return { zip: zip.zip, state, ...binding, weight, basis: 'boundary_share' }
    })

  const candidates = zipsOfState.flatMap((zip) => {
    const bindings = bound?.byZip.get(zip.zip)
    return bindings ? fromBoundary(zip, bindings) : fromGeography(zip)
  })

  if (bound) {
    const uncovered = zipsOfState.filter((zip) => !bound.byZip.has(zip.zip)).map((zip) => zip.zip)
    if (uncovered.length > 0) {
      notes.push(`${uncovered.length} in-state ZIPs have no current boundary row; candidates from geography, without districts (e.g. ${uncovered.slice(0, NOTES_LISTED).join(', ')})`)
    }
    const missing = [...bound.districtCodes].filter((code) => !has('district', code))
    if (missing.length > 0) notes.push(`${missing.length} district codes in the boundary file have no rate row: ${missing.slice(0, NOTES_LISTED).join(', ')}`)
  }

  const unplaced = findUnplaced(prepared, candidates)
  const unboundReplacements = [...replacesState].filter((code) => !candidates.some((c) => c.stack.some((ref) => ref.level === 'district' && ref.code === code)))
  if (unboundReplacements.length > 0) {
    notes.push(`${unboundReplacements.length} special jurisdictions replacing the state rate are bound to no ZIP (${unboundReplacements.slice(0, NOTES_LISTED).join(', ')}): their ZIPs answer with the state rate, never with both`)
  }
  for (const [level, count] of Object.entries(countBy(unplaced.map((u) => u.level)))) notes.push(`${count} ${level} jurisdictions unplaced`)

  // A city of the geography that no ZIP is bound to (North Mankato, MN): its county's stack and its
  // own rate. Only without a boundary file: with one, the place's districts would be unknown.
  const placeStacks: PlaceStack[] = []
  if (!input.boundaryFile) {
    for (const { level, code } of unplaced) {
      const place = level === 'city' ? geography.places.get(stateFips + code) : undefined
      if (!place || place.kind !== 'incorporated') continue
      const counties = place.counties.map((c) => c.fips)
      placeStacks.push(...placeStacksOf(geography, { geoid: place.geoid, name: place.name, counties }, (fips) => stackOf(fips, code, [])))
    }
    notes.push(...placeStacksNotes(placeStacks))
  }
  const withPlaces = withinZipCandidates(geography, candidates, placeStacks)
  // A ZIP+4 or an address answers its binding's stack: checked as every candidate's is, also where no ZIP candidate carries it.
  const plus4Bindings = bound && bound.combos.length > 0 ? bound.combos.map(bindingOf) : null
  const bindingChecks = (plus4Bindings ?? []).map((binding, i) => ({ where: `ZIP+4 binding ${i} (${[binding.placeName, binding.countyName].filter(Boolean).join(', ') || 'no county'})`, ...binding }))
  if (reading.countyWithinCities === 'folded') assertCitiesFoldCounties(prepared, [...withPlaces, ...bindingChecks])
  if (reading.localCap !== undefined) {
    const stacks = [...withPlaces.map((c) => ({ where: `ZIP ${c.zip}`, stack: c.stack })), ...bindingChecks, ...placeStacks.map((p) => ({ where: `place ${p.placeFips}`, stack: p.stack }))]
    assertLocalCap(prepared, reading.localCap, stacks)
  }

  // The file attests every rate in force in its quarter, even when no row starts that late.
  const { year, quarter } = prepared.fileName
  const quarterStart = `${year}-${String((quarter - 1) * 3 + 1).padStart(2, '0')}-01`
  const latestFrom = [prepared.latestFrom, bound?.latestFrom ?? '', quarterStart].sort().at(-1)!
  return {
    jurisdictions: prepared.jurisdictions,
    candidates: withPlaces,
    placeStacks,
    unplaced,
    edition: prepared.fileName.edition,
    effectiveThrough: latestFrom,
    effectiveDateBasis: 'publisher_effective_date',
    ...(plus4Bindings ? { plus4: { bindings: plus4Bindings, ranges: bound!.ranges, ...(bound!.addresses.ranges.zip.length > 0 ? { addresses: bound!.addresses } : {}) } } : {}),
    rowsRead: prepared.rowsRead + (bound?.stats.rowsRead ?? 0),
    rowsParsed: prepared.rowsParsed + (bound?.stats.rowsParsed ?? 0),
    files: [],
    notes,
  }
}

/**
 * Without a boundary file: the district refs a county carries by the state's district-area facts
 * (none when the state has no table). The binding's notes join the feed's.
 */
function districtsByArea(prepared: Prepared): (countyFips: string | null) => JurisdictionRef[] {
  const { input, rowsByRef, stateFips, notes } = prepared
  if (!input.districtAreas) return () => []
  const rowsOf = (level: Level, code: string) => (rowsByRef.get(refKey(level, code))?.rows ?? []).map((row) => ({ rate: row.generalIntra, from: row.from }))
  const districts = new Map([...rowsByRef.values()].filter((entry) => entry.level === 'district').map((entry) => [entry.code, rowsOf('district', entry.code)]))
  const binding = bindDistrictAreas({
    state: input.state,
    table: input.districtAreas,
    geography: input.geography,
    districts,
    countyRows: (fips) => (fips.startsWith(stateFips) ? rowsOf('county', countyCode(fips)) : []),
  })
  notes.push(...binding.notes)
  const byCounty = new Map<string, JurisdictionRef[]>()
  for (const [code, counties] of binding.counties) {
    for (const fips of counties) byCounty.set(fips, [...(byCounty.get(fips) ?? []), { level: 'district', code }])
  }
  return (countyFips) => (countyFips ? (byCounty.get(countyFips) ?? []) : [])
}

/** The days a rate check looks at: the quarter's first day and every later day a rate changes. */
function checkDays({ rowsByRef, quarterStart }: Prepared): string[] {
  return [...new Set([quarterStart, ...[...rowsByRef.values()].flatMap((entry) => entry.rows.map((row) => row.from)).filter((from) => from > quarterStart)])]
}

/** The general rate of a jurisdiction in force on a day (0 when none is), the later start winning. */
function rateOn({ rowsByRef }: Prepared, ref: JurisdictionRef, day: string): number {
  const inForce = (rowsByRef.get(refKey(ref.level, ref.code))?.rows ?? []).filter((row) => isActiveOn(row, day))
  return inForce.reduce<SstRateRow | null>((latest, row) => (!latest || row.from > latest.from ? row : latest), null)?.generalIntra ?? 0
}

/**
 * Where a city's rate folds in its county's, a city rate below the county's in force means the
 * file does not fold it: the county layer would go missing, so the state fails.
 */
function assertCitiesFoldCounties(prepared: Prepared, candidates: Pick<ZipCandidate, 'countyFips' | 'stack'>[]): void {
  const days = checkDays(prepared)
  const seen = new Set<string>()
  for (const candidate of candidates) {
    const city = candidate.stack.find((ref) => ref.level === 'city')
    if (!city || !candidate.countyFips || !prepared.rowsByRef.has(refKey('county', countyCode(candidate.countyFips)))) continue
    const county: JurisdictionRef = { level: 'county', code: countyCode(candidate.countyFips) }
    if (seen.has(`${city.code}|${county.code}`)) continue
    seen.add(`${city.code}|${county.code}`)
    for (const day of days) {
      const [cityRate, countyRate] = [rateOn(prepared, city, day), rateOn(prepared, county, day)]
      if (cityRate === 0 || cityRate >= countyRate) continue
      throw new Error(
        `${prepared.input.rateFile.name}: city ${city.code} at ${formatRate(cityRate)} on ${day} is below county ${county.code} at ${formatRate(countyRate)}, so its rate does not fold in the county's as the ${prepared.input.state} reading holds: the county layer would go missing, so the state fails (its next feed serves)`,
      )
    }
  }
}

/**
 * Fails the state when the local layers of a stack sum above the statutory local cap on the
 * quarter's first day or on any later day a rate changes: a layer is then counted twice.
 */
function assertLocalCap(prepared: Prepared, cap: number, stacks: { where: string; stack: JurisdictionRef[] }[]): void {
  const { replacesState, input } = prepared
  const days = checkDays(prepared)
  const seen = new Set<string>()
  for (const { where, stack } of stacks) {
    const local = stack.filter((ref) => ref.level !== 'state' && !replacesState.has(ref.code))
    const key = local.map((ref) => refKey(ref.level, ref.code)).join(',')
    if (seen.has(key)) continue
    seen.add(key)
    for (const day of days) {
      const sum = local.reduce((total, ref) => total + rateOn(prepared, ref, day), 0)
      if (sum <= cap) continue
      const parts = local.map((ref) => `${ref.level} ${ref.code} ${formatRate(rateOn(prepared, ref, day))}`).join(' + ')
      throw new Error(`${input.rateFile.name}: local layers of ${where} sum to ${formatRate(sum)} on ${day} (${parts}), above the ${input.state} local cap of ${formatRate(cap)}: a layer would be counted twice, so the state fails (its next feed serves)`)
    }
  }
}

const FOUR_RECORD = PLUS4_RECORDS.indexOf('4')

/**
 * One pass over the `4` ranges in ZIP and +4 order: per ZIP, the width of their union (overlapping
 * rows, current and future windows, count once), and the ranges that overlap an earlier range of
 * another binding whose window overlaps theirs (compared with the earlier range reaching furthest).
 */
function sweepPlus4Ranges(ranges: Plus4Ranges): { covered: Map<number, number>; conflicts: { zip: number; low: number; high: number }[] } {
  const covered = new Map<number, number>()
  const conflicts: { zip: number; low: number; high: number }[] = []
  let zip = -1
  let reach = -1
  for (const i of plus4Order(ranges)) {
    if (ranges.record[i] !== FOUR_RECORD) continue
    const [low, high] = [ranges.low[i], ranges.high[i]]
    if (ranges.zip[i] !== zip) [zip, reach] = [ranges.zip[i], -1]
    else if (low <= ranges.high[reach] && ranges.binding[reach] !== ranges.binding[i] && ranges.from[i] <= ranges.to[reach] && ranges.from[reach] <= ranges.to[i]) {
      conflicts.push({ zip, low, high })
    }
    if (reach >= 0 && high <= ranges.high[reach]) continue
    covered.set(zip, (covered.get(zip) ?? 0) + high - Math.max(low, reach >= 0 ? ranges.high[reach] + 1 : 0) + 1)
    reach = i
  }
  return { covered, conflicts }
}

/**
 * Shares of one ZIP's combinations. `4` rows weigh by plus-4 width; `Z` rows are the default for
 * the plus-4s no `4` row lists, so they split the uncovered width equally (SST lookup order 4 > Z).
 * A ZIP only address rows bind (VT files are all `A`) weighs their combinations by range count;
 * where Z or 4 rows bind the ZIP, its address rows refine single streets and do not move the ZIP answer.
 */
function weighBindings(bindings: ZipBindings): { combo: Combo; weight: number }[] {
  if (bindings.z.size === 0 && bindings.four.size === 0) {
    const total = [...bindings.address.values()].reduce((sum, entry) => sum + entry.ranges, 0)
    return [...bindings.address.values()].map(({ combo, ranges }) => ({ combo, weight: ranges / total }))
  }
  const covered = Math.min(PLUS4_SPACE, bindings.covered)
  const zShare = bindings.z.size > 0 ? (PLUS4_SPACE - covered) / bindings.z.size : 0
  const weights = new Map<string, { combo: Combo; weight: number }>()
  for (const [key, { combo, width }] of bindings.four) weights.set(key, { combo, weight: width })
  for (const [key, combo] of bindings.z) {
    const entry = weights.get(key) ?? { combo, weight: 0 }
    entry.weight += zShare
    weights.set(key, entry)
  }
  const kept = [...weights.values()].filter((entry) => entry.weight > 0)
  const total = kept.reduce((sum, entry) => sum + entry.weight, 0)
  return kept.map((entry) => ({ combo: entry.combo, weight: entry.weight / total }))
}

function findUnplaced(prepared: Prepared, candidates: ZipCandidate[]): UnplacedJurisdiction[] {
  const { input, stateFips } = prepared
  const placed = new Set(candidates.flatMap((candidate) => candidate.stack.map((ref) => refKey(ref.level, ref.code))))
  const unplaced: UnplacedJurisdiction[] = []
  for (const [key, { level, code, rows }] of prepared.rowsByRef) {
    if (level === 'state' || placed.has(key) || prepared.replacesState.has(code)) continue
    const latest = rows.reduce((a, b) => (b.from > a.from ? b : a))
    // A county's or a known place's tax lies within its counties; a district may lie anywhere.
    const counties =
      level === 'county' ? [stateFips + code] : level === 'city' ? input.geography.places.get(stateFips + code)?.counties.map((c) => c.fips) : undefined
    unplaced.push({
      level,
      code,
      name: jurisdictionName(level, code, stateFips, input),
      rate: latest.generalIntra,
      reason: unplacedReason(level, code, prepared),
      ...(counties ? { counties } : {}),
      ...(latest.to ? { until: latest.to } : {}),
    })
  }
  return unplaced
}

function unplacedReason(level: Level, code: string, { input, stateFips }: Prepared): string {
  if (level === 'county' && !input.geography.counties.has(stateFips + code)) return `county code ${code} has no county in geography`
  if (level === 'city' && !input.geography.places.has(stateFips + code)) return `place code ${code} has no place in geography`
  if (!input.boundaryFile) {
    return level === 'district' ? 'no boundary file: district cannot be bound to ZIPs' : 'no ZIP in geography is bound to it'
  }
  return `not bound to any in-state ZIP by ${input.boundaryFile.name}`
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return counts
}

const summarise = (values: string[]) =>
  Object.entries(countBy(values))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([value, count]) => `${value}×${count}`)
    .join(', ')
