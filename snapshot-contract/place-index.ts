// places.bin: the place-name gazetteer ("Springfield, IL") and county names.
//
// Sections:
//   st.code strings                         state codes, index used by p.state
//   p.key strings (sorted) · p.state u8 · p.geoid strings · p.name strings · p.kind u8
//   p.pop u32 · p.lat f64 · p.lng f64 · p.cty strings (main county FIPS)
//   p.z0 u32 · p.zn u16 · pz.zip u32        ZIPs bound to the place
//   cty.fips strings (sorted) · cty.name strings
// A place appears once per match key (a consolidated city answers to its core name too).
import { ContainerReader, ContainerWriter, type StringColumn } from './format.ts'
import type { GeoPlace, Geography } from './geography-model.ts'
import { placeMatchKey, placeMatchKeys } from './place-names.ts'
import { lowerBound } from './lower-bound.ts'
import { SectionChecks } from './section-checks.ts'

export const PLACE_KIND = ['incorporated', 'cdp'] as const

export function writePlaceIndex(geography: Geography): Buffer {
  const zipsByPlace = new Map<string, number[]>()
  for (const zip of geography.zips.values()) {
    for (const place of zip.places) {
      const list = zipsByPlace.get(place.geoid) ?? []
      list.push(Number(zip.zip))
      zipsByPlace.set(place.geoid, list)
    }
  }
  const rows = [...geography.places.values()]
    .flatMap((place) => placeMatchKeys(place.fullName).map((key) => ({ key, place })))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || largerFirst(a.place, b.place))
  const states = [...new Set(rows.map((row) => row.place.state))].sort()
  const pz: number[] = []
  const z0: number[] = []
  const zn: number[] = []
  for (const { place } of rows) {
    const zips = (zipsByPlace.get(place.geoid) ?? []).sort((a, b) => a - b)
    z0.push(pz.length)
    zn.push(zips.length)
    pz.push(...zips)
  }
  const counties = [...geography.counties.values()].sort((a, b) => a.fips.localeCompare(b.fips))
  const mainCounty = (counties: { fips: string; share: number }[]) =>
    [...counties].sort((a, b) => b.share - a.share || a.fips.localeCompare(b.fips))[0]?.fips ?? ''
  return new ContainerWriter('places')
    .strings('st.code', states)
    .strings('p.key', rows.map((row) => row.key))
    .column('p.state', 'u8', rows.map((row) => states.indexOf(row.place.state)))
    .strings('p.geoid', rows.map((row) => row.place.geoid))
    .strings('p.name', rows.map((row) => row.place.name))
    .column('p.kind', 'u8', rows.map((row) => PLACE_KIND.indexOf(row.place.kind)))
    .column('p.pop', 'u32', rows.map((row) => row.place.population))
    .column('p.lat', 'f64', rows.map((row) => row.place.lat ?? NaN))
    .column('p.lng', 'f64', rows.map((row) => row.place.lng ?? NaN))
    .strings('p.cty', rows.map((row) => mainCounty(row.place.counties)))
    .column('p.z0', 'u32', z0)
    .column('p.zn', 'u16', zn)
    .column('pz.zip', 'u32', pz)
    .strings('cty.fips', counties.map((county) => county.fips))
    .strings('cty.name', counties.map((county) => county.name))
    .toBuffer()
}

// Places of one name are written largest first: by population, and by land area where no population
// is held (the Census files have none), so a reader's ties keep that order.
const largerFirst = (a: GeoPlace, b: GeoPlace) =>
  b.population - a.population || (b.landArea ?? 0) - (a.landArea ?? 0) || a.geoid.localeCompare(b.geoid)

export type PlaceMatch = {
  geoid: string
  state: string
  name: string
  kind: (typeof PLACE_KIND)[number]
  population: number
  lat: number | null
  lng: number | null
  countyFips: string
  zips: string[]
}

export class PlaceIndex {
  readonly #states: string[]
  readonly #key: StringColumn
  readonly #state: Uint8Array
  readonly #geoid: StringColumn
  readonly #name: StringColumn
  readonly #kind: Uint8Array
  readonly #pop: Uint32Array
  readonly #lat: Float64Array
  readonly #lng: Float64Array
  readonly #cty: StringColumn
  readonly #z0: Uint32Array
  readonly #zn: Uint16Array
  readonly #zips: Uint32Array
  readonly #countyFips: StringColumn
  readonly #countyName: StringColumn

  constructor(bytes: Uint8Array, label = 'places.bin') {
    const r = new ContainerReader(bytes, 'places', label)
    const codes = r.strings('st.code')
    this.#states = Array.from({ length: codes.length }, (_, i) => codes.get(i))
    this.#key = r.strings('p.key')
    this.#state = r.column('p.state', 'u8')
    this.#geoid = r.strings('p.geoid')
    this.#name = r.strings('p.name')
    this.#kind = r.column('p.kind', 'u8')
    this.#pop = r.column('p.pop', 'u32')
    this.#lat = r.column('p.lat', 'f64')
    this.#lng = r.column('p.lng', 'f64')
    this.#cty = r.strings('p.cty')
    this.#z0 = r.column('p.z0', 'u32')
    this.#zn = r.column('p.zn', 'u16')
    this.#zips = r.column('pz.zip', 'u32')
    this.#countyFips = r.strings('cty.fips')
    this.#countyName = r.strings('cty.name')
    const check = new SectionChecks(label)
    check.sameLength(this.#key.length, {
      'p.state': this.#state, 'p.geoid': this.#geoid, 'p.name': this.#name, 'p.kind': this.#kind, 'p.pop': this.#pop,
      'p.lat': this.#lat, 'p.lng': this.#lng, 'p.cty': this.#cty, 'p.z0': this.#z0, 'p.zn': this.#zn,
    })
    check.sortedStrings('p.key', this.#key)
    check.indices('p.state', this.#state, this.#states.length)
    check.indices('p.kind', this.#kind, PLACE_KIND.length)
    check.ranges('p.z0', this.#z0, this.#zn, this.#zips.length)
    check.indices('pz.zip', this.#zips, 100_000)
    check.sameLength(this.#countyFips.length, { 'cty.name': this.#countyName })
    check.sortedStrings('cty.fips', this.#countyFips)
  }

  get size(): number {
    return this.#key.length
  }

  /** Places whose name matches (any state unless one is given), most populous first; without population figures, in the written order (largest land area first). */
  find(name: string, state?: string): PlaceMatch[] {
    const key = placeMatchKey(name)
    if (!key) return []
    const lo = lowerBound(this.#key.length, (i) => this.#key.get(i) < key)
    const matches: PlaceMatch[] = []
    for (let i = lo; i < this.#key.length && this.#key.get(i) === key; i++) {
      const match = this.#at(i)
      if (!state || match.state === state.toUpperCase()) matches.push(match)
    }
    return matches.sort((a, b) => b.population - a.population)
  }

  countyName(fips: string): string | null {
    const lo = lowerBound(this.#countyFips.length, (i) => this.#countyFips.get(i) < fips)
    return lo < this.#countyFips.length && this.#countyFips.get(lo) === fips ? this.#countyName.get(lo) : null
  }

  #at(i: number): PlaceMatch {
    const zips: string[] = []
    for (let j = this.#z0[i]; j < this.#z0[i] + this.#zn[i]; j++) zips.push(String(this.#zips[j]).padStart(5, '0'))
    return {
      geoid: this.#geoid.get(i),
      state: this.#states[this.#state[i]],
      name: this.#name.get(i),
      kind: PLACE_KIND[this.#kind[i]],
      population: this.#pop[i],
      lat: Number.isNaN(this.#lat[i]) ? null : this.#lat[i],
      lng: Number.isNaN(this.#lng[i]) ? null : this.#lng[i],
      countyFips: this.#cty.get(i),
      zips,
    }
  }
}
