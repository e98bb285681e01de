// What lookups need from a snapshot beyond its indexes, computed once per snapshot (one of its
// derived views, so it goes away with the snapshot): state records by code, withheld and carried ZIPs, each state's
// standing warnings, the date range its data covers, and its ZIP centroids for point lookups.
import { feedTraits, isStatewide } from '../../snapshot-contract/feed-traits.ts'
import type { StateRecord } from '../../snapshot-contract/manifest.ts'
import type { Authority } from '../../snapshot-contract/rate-index.ts'
import { derivedView } from '../snapshot/derived-views.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import { STATES } from '../../sources/index.ts'
import type { StateDescriptor } from '../../sources/descriptor.ts'
import type { LookupWarning, WarningObject } from './lookup-warnings.ts'
import { standingWarnings, taxingUnplaced, unplacedExample, unplacedInCounty, unplacedOn, type RateVaries, type UnplacedTax } from './lookup-warnings.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { placeName, type PlaceModel, type PlaceName } from './taxing-place.ts'

/** The parts of a snapshot a lookup reads; an earlier snapshot opened for history has the same shape. */
export type SnapshotView = Pick<Snapshot, 'id' | 'manifest' | 'rates' | 'places' | 'shapes' | 'derived'>

/** The dates one state's data in a snapshot answers for. */
export type Coverage = {
  /**
   * first day the data answers: the record's coverage_from (every jurisdiction's rate known from
   * then), else the first day any state-level rate is in force; null = open (a statute with no dated start)
   */
  from: string | null
  /** newest effective date the data reflects (manifest effective_through) */
  through: string | null
  /** when the earliest state-level rate has no start (a statute's): its last day, null if it has none */
  undatedUntil?: string | null
}

/** One ZIP entry of a state, reduced to what a nearest-centroid search compares. */
export type ZipPoint = {
  entry: number
  lat: number
  lng: number
  /** per candidate: county FIPS, place GEOID ('' when the source names the place only) and place name */
  candidates: { county: string | null; placeGeoid: string | null; placeName: string | null }[]
}

/** Warnings every answer of a state shares: frozen, the list and each warning (answer-text.ts keeps their JSON text). */
const shared = (warnings: WarningObject[]): readonly WarningObject[] => Object.freeze(warnings.map((warning) => Object.freeze(warning)))

export class SnapshotFacts {
  readonly #view: SnapshotView
  readonly #records = new Map<string, StateRecord>()
  readonly #withheld = new Map<string, { state: string; note: string }>()
  readonly #carried = new Map<string, { state: string; reason: string; snapshot: string }>()
  readonly #layered = new Map<string, { state: string; reason: string }>()
  readonly #served: ReadonlySet<string>
  readonly #warnings = new Map<string, readonly LookupWarning[]>()
  readonly #detailedWarnings = new Map<string, readonly LookupWarning[]>()
  readonly #plainWarnings = new Map<string, readonly LookupWarning[]>()
  readonly #unplaced = new Map<string, UnplacedTax[]>()
  /** state → county FIPS ('' when not known) → the state's unplaced taxes that may lie there */
  readonly #unplacedByCounty = new Map<string, Map<string, UnplacedTax[]>>()
  /** state → "level code" → where that tax stands in the record's rate_varies */
  readonly #rateVaries = new Map<string, Map<string, number[]>>()
  readonly #coverage = new Map<string, Coverage>()
  readonly #points = new Map<string, ZipPoint[]>()
  readonly #geoidsByName = new Map<string, ReadonlySet<string>>()
  readonly #placeNames = new Map<string, PlaceName>()
  readonly #mailingNames = new Map<string, Map<string, number[]>>()

  constructor(view: SnapshotView) {
    this.#view = view
    this.#served = new Set(view.rates.states)
    for (const record of view.manifest.states) {
      this.#records.set(record.code, record)
      for (const { zip, reason, carried_from, known_layers } of record.withheld) {
        if (carried_from) this.#carried.set(zip, { state: record.code, reason, snapshot: carried_from })
        else if (known_layers) this.#layered.set(zip, { state: record.code, reason })
        else this.#withheld.set(zip, { state: record.code, note: `ZIP ${zip} withheld (answered as unresolved): ${reason}` })
      }
    }
  }

  record(state: string): StateRecord | undefined {
    return this.#records.get(state)
  }

  /** How the state's feed names places: none for a state the snapshot does not serve. */
  placeModel(state: string): PlaceModel {
    const record = this.record(state)
    return record ? feedTraits(record.feed).placeModel : 'none'
  }

  /** One rate for every address of the state (a `static` state's statute). */
  statewide(state: string): boolean {
    const record = this.record(state)
    return record !== undefined && isStatewide(record)
  }

  /** True when the snapshot holds rate data for the state. */
  serves(state: string): boolean {
    return this.#served.has(state)
  }

  withheld(zip5: string): { state: string; note: string } | undefined {
    return this.#withheld.get(zip5)
  }

  /** A ZIP whose source figure failed the bounds, with no earlier answer: answered by its state and county layers. */
  answeredByKnownLayers(zip5: string, state: string): { reason: string } | undefined {
    const layered = this.#layered.get(zip5)
    return layered?.state === state ? layered : undefined
  }

  /** A ZIP whose new source figure was withheld and which keeps its answer of an earlier snapshot. */
  carried(zip5: string, state: string): { reason: string; snapshot: string } | undefined {
    const carried = this.#carried.get(zip5)
    return carried?.state === state ? carried : undefined
  }

  /**
   * The aggregator label, freshness status and unplaced taxes of the state for an answer in the
   * county (`countyFips`; null: not known, so every unplaced tax may lie there) on the date: shared
   * by every answer with the same unplaced taxes. `boundPlaced`: the state's boundary file binds
   * the location, naming every tax that lies there, so no unplaced tax may.
   */
  standingWarnings(state: string, countyFips: string | null, isoDate: string, detailed: boolean, answered: readonly Authority[], boundPlaced = false): readonly LookupWarning[] {
    const record = this.#records.get(state)
    if (!record) return []
    // A place with no ZIP of its own answers its own taxes, which stay listed as unplaced for ZIP answers.
    const mayLieHere = boundPlaced ? [] : unplacedOn(this.#unplacedIn(record, countyFips), isoDate)
    const unplaced = mayLieHere.filter((u) => !answered.some((a) => a.level === u.level && a.code === u.code))
    if (unplaced.length === 0) {
      let plain = this.#plainWarnings.get(state)
      if (!plain) this.#plainWarnings.set(state, (plain = shared(standingWarnings(record, this.#view.id, [], false, false))))
      return plain
    }
    const inCounty = countyFips !== null
    const cache = detailed ? this.#detailedWarnings : this.#warnings
    // The example an unplaced warning gives depends on the answered taxes it is told apart from.
    const answeredTaxes = answered.map(({ level, code, name, rate }) => ({ level, code, name, rate: formatRate(rate) }))
    const example = unplacedExample(unplaced, answeredTaxes)
    const key = `${state}|${inCounty}|${unplaced.map((u) => u.code).join(',')}|${example.tax.code}=${example.sameAs?.code ?? ''}`
    let warnings = cache.get(key)
    if (!warnings) cache.set(key, (warnings = shared(standingWarnings(record, this.#view.id, unplaced, inCounty, detailed, answeredTaxes))))
    return warnings
  }

  /** The state's unplaced taxes that may lie in the county (null: not known), on any date. */
  #unplacedIn(record: StateRecord, countyFips: string | null): UnplacedTax[] {
    let taxes = this.#unplaced.get(record.code)
    if (!taxes) this.#unplaced.set(record.code, (taxes = taxingUnplaced(record)))
    if (taxes.length === 0) return taxes
    let byCounty = this.#unplacedByCounty.get(record.code)
    if (!byCounty) this.#unplacedByCounty.set(record.code, (byCounty = new Map()))
    let inCounty = byCounty.get(countyFips ?? '')
    if (!inCounty) byCounty.set(countyFips ?? '', (inCounty = unplacedInCounty(taxes, countyFips)))
    return inCounty
  }

  /** Of the state's `rate_varies`, those the answered taxes include, in the record's order. */
  ratesVarying(state: string, answered: readonly Authority[]): RateVaries[] {
    const record = this.#records.get(state)
    if (!record || record.rate_varies.length === 0) return []
    let byTax = this.#rateVaries.get(state)
    if (!byTax) {
      byTax = new Map()
      for (const [i, { level, code }] of record.rate_varies.entries()) {
        const key = `${level} ${code}`
        byTax.set(key, [...(byTax.get(key) ?? []), i])
      }
      this.#rateVaries.set(state, byTax)
    }
    const found = new Set<number>()
    for (const { level, code } of answered) for (const i of byTax.get(`${level} ${code}`) ?? []) found.add(i)
    return [...found].sort((a, b) => a - b).map((i) => record.rate_varies[i]!)
  }


  coverage(state: string): Coverage {
    let coverage = this.#coverage.get(state)
    if (!coverage) {
      let from: string | null | undefined
      let undatedUntil: string | null | undefined
      for (const authority of this.#view.rates.authoritiesOfState(state)) {
        if (authority.level !== 'state') continue
        if (authority.from === null) {
          from = null
          undatedUntil = authority.to
        } else if (from === undefined || (from !== null && authority.from < from)) from = authority.from
      }
      const record = this.#records.get(state)
      coverage = { from: record?.coverage_from ?? from ?? null, through: record?.effective_through ?? null }
      if (undatedUntil !== undefined) coverage.undatedUntil = undatedUntil
      this.#coverage.set(state, coverage)
    }
    return coverage
  }

  /** ZIP entries of the state that have a centroid, with their candidates' county and place keys. */
  zipPoints(state: string): readonly ZipPoint[] {
    let points = this.#points.get(state)
    if (!points) {
      points = []
      const { rates } = this.#view
      for (const i of rates.entriesOfState(state)) {
        const entry = rates.entryAt(i)
        if (entry.lat === null || entry.lng === null) continue
        points.push({
          entry: i,
          lat: entry.lat,
          lng: entry.lng,
          candidates: entry.candidates.map((c) => ({ county: c.county?.fips || null, placeGeoid: c.place?.geoid ?? null, placeName: c.place?.name ?? null })),
        })
      }
      this.#points.set(state, points)
    }
    return points
  }

  /** Entry indexes of the state's ZIPs whose USPS city has the name's key ("BROOKLYN"). */
  zipsMailedAs(state: string, name: string): readonly number[] {
    let byName = this.#mailingNames.get(state)
    if (!byName) {
      byName = new Map()
      for (const i of this.#view.rates.entriesOfState(state)) {
        const key = this.placeName(this.#view.rates.entryAt(i).city).key
        if (key === '') continue
        if (!byName.has(key)) byName.set(key, [])
        byName.get(key)!.push(i)
      }
      this.#mailingNames.set(state, byName)
    }
    const key = placeName(name).key
    return key === '' ? [] : (byName.get(key) ?? [])
  }

  /** GEOIDs of the gazetteer places of a state answering to a name (aggregator rows name places only). */
  placeGeoidsNamed(state: string, name: string): ReadonlySet<string> {
    const key = `${state}|${name}`
    let geoids = this.#geoidsByName.get(key)
    if (!geoids) {
      geoids = new Set(this.#view.places.find(name, state).map((p) => p.geoid))
      this.#geoidsByName.set(key, geoids)
    }
    return geoids
  }

  /** A candidate's place name in comparable form (names come from the snapshot, so the memo is bounded). */
  placeName(name: string): PlaceName {
    let normalized = this.#placeNames.get(name)
    if (!normalized) {
      normalized = placeName(name)
      this.#placeNames.set(name, normalized)
    }
    return normalized
  }

  descriptor(state: string): StateDescriptor | undefined {
    return DESCRIPTORS.get(state)
  }
}

const DESCRIPTORS: ReadonlyMap<string, StateDescriptor> = new Map(STATES.map((d) => [d.code, d]))

const FACTS = derivedView('lookup facts', (view: SnapshotView) => new SnapshotFacts(view))

export const factsOf = (view: SnapshotView): SnapshotFacts => FACTS.of(view)
