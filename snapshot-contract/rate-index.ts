// rates.bin: authorities with their rate windows, and ZIP → candidate stacks, for every served
// state. Writer and reader live together so no section name or encoding is typed twice.
//
// Sections (all row-aligned columns):
//   st.code      strings  state codes, index = state number used below
//   k.state u8 · k.level u8 · k.code strings · k.name strings · k.v0 u32 · k.vn u16
//                          one row per authority (state, level, code); its versions are
//                          v[k.v0 … k.v0 + k.vn), ordered by window start
//   k.filing strings       the code the state's return names the authority by, where the
//                          publisher gives one other than k.code ('' none); absent when no
//                          authority has one (and from older snapshots)
//   v.rate u32 · v.from i32 · v.to i32 · v.src u16
//                          rate in 1e-5 units, window in day numbers (inclusive), source index
//   src          strings  source file names
//   z.zip u32 · z.state u8 · z.flags u8 · z.c0 u32 · z.cn u16
//                          ZIP entries sorted by (zip, state); candidates c[z.c0 … z.c0 + z.cn)
//   z.city strings · z.lat f64 · z.lng f64   USPS preferred city and centroid (NaN = none)
//   c.cty u32 · c.plc u32 · c.w u16 · c.s0 u32 · c.sn u8
//                          county and place (index into geo names, NONE = none), weight in
//                          1/10000, stack s[c.s0 … c.s0 + c.sn) of authority indices, of the
//                          ZIP's state, ascending
//   c.basis u8            why the candidate is one (CANDIDATE_BASES index); absent from older
//                          snapshots, read as `published`
// Ranges are laid end to end in row order: a key's versions, a ZIP's candidates (those of places
// with no ZIP come after all ZIPs'), a candidate's stack. The reader checks that, and every index
// between sections, when it opens the file (section-checks.ts).
//   s.key u32
//   p.state u8 · p.c u32   places with no ZIP of their own (FeedResult.placeStacks): the state and
//                          a candidate no ZIP entry points at; absent from older snapshots
//   g.id strings · g.name strings   county FIPS / place GEOID and display name
//   q.state u8 · q.cty u32 · q.plc u32 · q.s0 u32 · q.sn u8 · q.miss strings · q.key u32
//                          bindings of ZIP+4 ranges (FeedResult.plus4), each state's together: the
//                          state, county and place as c.cty/c.plc, its stack q.key[q.s0 … q.s0 + q.sn)
//                          (laid out as s.key is), and the district codes the boundary file names
//                          there without a rate row (comma-separated); apart from c.* and s.key, so
//                          a reader that knows no ZIP+4 data reads the rest unchanged
//   x.zip u32 · x.lo u16 · x.hi u16 · x.from i32 · x.to i32 · x.rec u8 · x.q u32
//                          ZIP+4 ranges sorted by (zip, lo, hi, from, to, rec, q): +4 codes lo…hi
//                          of the ZIP, in force over days from…to, from a record of kind
//                          PLUS4_RECORDS[rec], bound to q[x.q]; the q.* and x.* sections are
//                          absent when no state has a boundary file (x.* is written, maybe empty,
//                          whenever q.* is)
//   a.street strings       the street keys of address ranges (street-key.ts), sorted, each once
//   a.zip u32 · a.st u32 · a.lo u32 · a.hi u32 · a.side u8 · a.from i32 · a.to i32 · a.q u32
//                          address ranges of boundary A records sorted by (zip, st, lo, hi, side,
//                          from, to, q): house numbers lo…hi on the ADDRESS_SIDES[side] of street
//                          a.street[st] in the ZIP, in force over days from…to, bound to q[a.q];
//                          absent when no state's boundary file has address ranges
import type { AddressRanges, CandidateBasis, FeedResult, Level, Plus4Binding, Plus4Record, Plus4Table, ZipCandidate } from './model.ts'
import { ADDRESS_SIDES, CANDIDATE_BASES, LEVELS, PLUS4_RECORDS } from './model.ts'
import { plus4Order, Plus4RangeBuilder } from './plus4-ranges.ts'
import { AddressRangeBuilder, rangeHolds, sortedAddressRanges } from './address-ranges.ts'
import {
  ContainerReader,
  ContainerWriter,
  OPEN_FROM,
  OPEN_TO,
  dayNumber,
  isoFromDayNumber,
  type StringColumn,
} from './format.ts'
import { lowerBound } from './lower-bound.ts'
import { SectionChecks } from './section-checks.ts'

export const NONE = 0xffffffff
export const WEIGHT_SCALE = 10_000
/** No authority's rate reaches 100% (1e-5 units): a larger value is damage, not a rate. */
export const MAX_RATE_UNITS = 100_000

/** `unlisted`: the ZIP geography lacks the ZIP (an aggregator row, or an official state's ZIP placed by an aggregator's region name) */
export const ZIP_FLAG = { straddles: 1, notZcta: 2, ambiguous: 4, unlisted: 8 } as const

export type ZipMeta = { city: string; lat: number | null; lng: number | null; zcta: boolean; straddles: boolean }

export type RateIndexInput = {
  states: { code: string; result: FeedResult }[]
  zipMeta: (zip: string) => ZipMeta | undefined
}

export function writeRateIndex(input: RateIndexInput): Buffer {
  const states = [...input.states].sort((a, b) => a.code.localeCompare(b.code))
  const stateIndex = new Map(states.map((s, i) => [s.code, i]))

  const sources: string[] = []
  const sourceIndex = (name: string) => {
    let i = sources.indexOf(name)
    if (i < 0) i = sources.push(name) - 1
    return i
  }

  // Authorities: (state, level, code) with their versions ordered by start date.
  type Key = { state: number; level: number; code: string; name: string; filing: string; versions: { rate: number; from: number; to: number; src: number }[] }
  const keys = new Map<string, Key>()
  const keyId = (state: string, level: Level, code: string) => `${state}|${level}|${code}`
  for (const { code: state, result } of states) {
    for (const j of result.jurisdictions) {
      const id = keyId(state, j.level, j.code)
      let key = keys.get(id)
      if (!key) {
        key = { state: stateIndex.get(state)!, level: LEVELS.indexOf(j.level), code: j.code, name: j.name, filing: '', versions: [] }
        keys.set(id, key)
      }
      if (j.filingCode) key.filing = j.filingCode
      key.versions.push({
        rate: j.rate,
        from: j.from ? dayNumber(j.from) : OPEN_FROM,
        to: j.to ? dayNumber(j.to) : OPEN_TO,
        src: sourceIndex(j.source),
      })
    }
  }
  const orderedKeys = [...keys.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const keyPosition = new Map(orderedKeys.map(([id], i) => [id, i]))
  const versions = orderedKeys.flatMap(([, key]) =>
    key.versions.sort((a, b) => a.from - b.from || a.to - b.to || a.rate - b.rate),
  )

  // Geography names (counties and places) referenced by candidates.
  const geoIds: string[] = []
  const geoNames: string[] = []
  const geoPosition = new Map<string, number>()
  const geoIndex = (id: string | null, name: string) => {
    if (!id && !name) return NONE
    const token = `${id ?? ''}|${name}`
    let i = geoPosition.get(token)
    if (i === undefined) {
      i = geoIds.push(id ?? '') - 1
      geoNames.push(name)
      geoPosition.set(token, i)
    }
    return i
  }

  const entries = states
    .flatMap(({ code, result }) => {
      const byZip = new Map<string, typeof result.candidates>()
      for (const candidate of result.candidates) {
        const list = byZip.get(candidate.zip)
        if (list) list.push(candidate)
        else byZip.set(candidate.zip, [candidate])
      }
      return [...byZip.entries()].map(([zip, candidates]) => ({ zip, state: code, candidates }))
    })
    .sort((a, b) => a.zip.localeCompare(b.zip) || a.state.localeCompare(b.state))

  const z = { zip: [] as number[], state: [] as number[], flags: [] as number[], c0: [] as number[], cn: [] as number[], city: [] as string[], lat: [] as number[], lng: [] as number[] }
  const c = { cty: [] as number[], plc: [] as number[], w: [] as number[], s0: [] as number[], sn: [] as number[], basis: [] as number[] }
  const stackKeys: number[] = []
  const stackPositions = (state: string, where: string, stack: ZipCandidate['stack']) =>
    stack
      .map((ref) => {
        const position = keyPosition.get(keyId(state, ref.level, ref.code))
        if (position === undefined) throw new Error(`${state} ${where}: stack names ${ref.level} ${ref.code}, which has no rate`)
        return position
      })
      .sort((a, b) => a - b)
  const addCandidate = (state: string, where: string, candidate: Pick<ZipCandidate, 'countyFips' | 'countyName' | 'placeFips' | 'placeName' | 'weight' | 'stack' | 'basis'>) => {
    c.basis.push(CANDIDATE_BASES.indexOf(candidate.basis ?? 'published'))
    c.cty.push(geoIndex(candidate.countyFips, candidate.countyName))
    c.plc.push(candidate.placeFips || candidate.placeName ? geoIndex(candidate.placeFips, candidate.placeName) : NONE)
    c.w.push(Math.round(candidate.weight * WEIGHT_SCALE))
    c.s0.push(stackKeys.length)
    const stack = stackPositions(state, where, candidate.stack)
    c.sn.push(stack.length)
    stackKeys.push(...stack)
  }
  for (const entry of entries) {
    const meta = input.zipMeta(entry.zip)
    // Equal weights in one county keep the feed's order (a stable sort): a ZIP shared by two places
    // lists the one its point lies in first (geography/build-geography.ts), and that one answers.
    const ordered = [...entry.candidates].sort((a, b) => b.weight - a.weight || (a.countyFips ?? '').localeCompare(b.countyFips ?? ''))
    let flags = 0
    if (meta?.straddles) flags |= ZIP_FLAG.straddles
    if (!meta?.zcta) flags |= ZIP_FLAG.notZcta
    if (!meta) flags |= ZIP_FLAG.unlisted
    if (ordered.length > 1) flags |= ZIP_FLAG.ambiguous
    z.zip.push(Number(entry.zip))
    z.state.push(stateIndex.get(entry.state)!)
    z.flags.push(flags)
    z.c0.push(c.cty.length)
    z.cn.push(ordered.length)
    z.city.push(meta?.city ?? '')
    z.lat.push(meta?.lat ?? NaN)
    z.lng.push(meta?.lng ?? NaN)
    for (const candidate of ordered) addCandidate(entry.state, entry.zip, candidate)
  }
  // Places with no ZIP of their own: candidates no ZIP entry points at, listed by state.
  const p = { state: [] as number[], c: [] as number[] }
  for (const { code, result } of states) {
    for (const place of result.placeStacks ?? []) {
      p.state.push(stateIndex.get(code)!)
      p.c.push(c.cty.length)
      addCandidate(code, `place ${place.placeFips}`, { ...place, weight: 1 })
    }
  }

  // ZIP+4 bindings, each state's together; their ranges, of every state, in one sorted list.
  const q = { state: [] as number[], cty: [] as number[], plc: [] as number[], s0: [] as number[], sn: [] as number[], miss: [] as string[], key: [] as number[] }
  const plus4States: { state: number; ranges: Plus4Table['ranges']; order: Uint32Array; first: number; next: number }[] = []
  const addresses = new AddressRangeBuilder()
  for (const { code, result } of states) {
    if (!result.plus4) continue
    const first = q.state.length
    result.plus4.bindings.forEach((binding, i) => {
      q.state.push(stateIndex.get(code)!)
      q.cty.push(geoIndex(binding.countyFips, binding.countyName))
      q.plc.push(binding.placeFips || binding.placeName ? geoIndex(binding.placeFips, binding.placeName) : NONE)
      q.miss.push(binding.unrated.join(','))
      const stack = stackPositions(code, `ZIP+4 binding ${i}`, binding.stack)
      q.s0.push(q.key.length)
      q.sn.push(stack.length)
      q.key.push(...stack)
    })
    plus4States.push({ state: stateIndex.get(code)!, ranges: result.plus4.ranges, order: plus4Order(result.plus4.ranges), first, next: 0 })
    const own = result.plus4.addresses
    if (own) for (let i = 0; i < own.ranges.zip.length; i++) addresses.push(addressRowAt((id) => own.streets[id]!, own.ranges, i, first))
  }
  const a = sortedAddressRanges(addresses.finish())
  const x = plus4Columns(plus4States.reduce((sum, s) => sum + s.order.length, 0))
  // Each state's rows are in order; merged by ZIP (states in code order among equal ZIPs).
  for (let row = 0; row < x.zip.length; row++) {
    let from = plus4States[0]!
    for (const s of plus4States) if (s.next < s.order.length && (from.next >= from.order.length || s.ranges.zip[s.order[s.next]!]! < from.ranges.zip[from.order[from.next]!]!)) from = s
    const at = from.order[from.next++]!
    const r = from.ranges
    x.zip[row] = r.zip[at]!
    x.lo[row] = r.low[at]!
    x.hi[row] = r.high[at]!
    x.from[row] = r.from[at]!
    x.to[row] = r.to[at]!
    x.rec[row] = r.record[at]!
    x.q[row] = from.first + r.binding[at]!
  }
  const writer = new ContainerWriter('rates')
    .strings('st.code', states.map((s) => s.code))
    .column('k.state', 'u8', orderedKeys.map(([, k]) => k.state))
    .column('k.level', 'u8', orderedKeys.map(([, k]) => k.level))
    .strings('k.code', orderedKeys.map(([, k]) => k.code))
    .strings('k.name', orderedKeys.map(([, k]) => k.name))
  let first = 0
  const v0: number[] = []
  const vn: number[] = []
  for (const [, key] of orderedKeys) {
    v0.push(first)
    vn.push(key.versions.length)
    first += key.versions.length
  }
  // Written only when some authority has a filing code of its own: an index without them reads as an older one does.
  if (orderedKeys.some(([, k]) => k.filing)) writer.strings('k.filing', orderedKeys.map(([, k]) => k.filing))
  writer
    .column('k.v0', 'u32', v0)
    .column('k.vn', 'u16', vn)
    .column('v.rate', 'u32', versions.map((v) => v.rate))
    .column('v.from', 'i32', versions.map((v) => v.from))
    .column('v.to', 'i32', versions.map((v) => v.to))
    .column('v.src', 'u16', versions.map((v) => v.src))
    .strings('src', sources)
    .column('z.zip', 'u32', z.zip)
    .column('z.state', 'u8', z.state)
    .column('z.flags', 'u8', z.flags)
    .column('z.c0', 'u32', z.c0)
    .column('z.cn', 'u16', z.cn)
    .strings('z.city', z.city)
    .column('z.lat', 'f64', z.lat)
    .column('z.lng', 'f64', z.lng)
    .column('c.cty', 'u32', c.cty)
    .column('c.plc', 'u32', c.plc)
    .column('c.w', 'u16', c.w)
    .column('c.s0', 'u32', c.s0)
    .column('c.sn', 'u8', c.sn)
    .column('c.basis', 'u8', c.basis)
    .column('s.key', 'u32', stackKeys)
    .strings('g.id', geoIds)
    .strings('g.name', geoNames)
  // Written only when some place has a stack (some state a boundary file): an index without them reads as an older one does.
  if (p.c.length > 0) writer.column('p.state', 'u8', p.state).column('p.c', 'u32', p.c)
  if (q.state.length > 0) {
    writer.column('q.state', 'u8', q.state).column('q.cty', 'u32', q.cty).column('q.plc', 'u32', q.plc).column('q.s0', 'u32', q.s0).column('q.sn', 'u8', q.sn).strings('q.miss', q.miss).column('q.key', 'u32', q.key)
    writer.column('x.zip', 'u32', x.zip).column('x.lo', 'u16', x.lo).column('x.hi', 'u16', x.hi).column('x.from', 'i32', x.from).column('x.to', 'i32', x.to).column('x.rec', 'u8', x.rec).column('x.q', 'u32', x.q)
  }
  if (a.ranges.zip.length > 0) {
    const r = a.ranges
    writer.strings('a.street', a.streets).column('a.zip', 'u32', r.zip).column('a.st', 'u32', r.street).column('a.lo', 'u32', r.low).column('a.hi', 'u32', r.high)
    writer.column('a.side', 'u8', r.side).column('a.from', 'i32', r.from).column('a.to', 'i32', r.to).column('a.q', 'u32', r.binding)
  }
  return writer.toBuffer()
}

/** Address range `i` as a builder takes it, its street named by `streetOf`, its binding moved by `first`. */
const addressRowAt = (streetOf: (id: number) => string, r: AddressRanges, i: number, first: number) => ({
  zip: r.zip[i]!,
  street: streetOf(r.street[i]!),
  low: r.low[i]!,
  high: r.high[i]!,
  side: ADDRESS_SIDES[r.side[i]!]!,
  from: r.from[i]!,
  to: r.to[i]!,
  binding: first + r.binding[i]!,
})

const plus4Columns = (rows: number) => ({
  zip: new Uint32Array(rows),
  lo: new Uint16Array(rows),
  hi: new Uint16Array(rows),
  from: new Int32Array(rows),
  to: new Int32Array(rows),
  rec: new Uint8Array(rows),
  q: new Uint32Array(rows),
})

// ---------------------------------------------------------------------------------------------

/** One version of a taxing authority's rate; shared by every answer that reads it, so frozen. */
export type Authority = Readonly<{
  level: Level
  code: string
  name: string
  rate: number
  from: string | null
  to: string | null
  source: string
}>

export type Candidate = {
  county: { fips: string; name: string } | null
  place: { geoid: string; name: string } | null
  weight: number
  /** why it is a candidate of its ZIP (model.ts CANDIDATE_BASES) */
  basis: CandidateBasis
  /** authority indices; resolve with `authoritiesOn` */
  stack: number[]
}

/**
 * One address range holding the house asked about, in force on the date asked about; `read`: false
 * for an `unread` range, which can make an answer ambiguous but never gives one.
 */
export type AddressMatch = { binding: number; candidate: Candidate; unrated: string[]; read: boolean }

/** One ZIP+4 range holding the +4 asked about, in force on the date asked about. */
export type Plus4Match = {
  record: Plus4Record
  /** the binding's number: equal numbers, equal bindings */
  binding: number
  candidate: Candidate
  /** district codes the boundary file binds there that have no rate row */
  unrated: string[]
}

export type ZipEntry = {
  zip: string
  state: string
  city: string
  lat: number | null
  lng: number | null
  straddles: boolean
  zcta: boolean
  /** the ZIP geography lacks the ZIP (ZIP_FLAG.unlisted) */
  unlisted: boolean
  candidates: Candidate[]
}

export class RateIndex {
  readonly states: string[]
  readonly #k: { state: Uint8Array; level: Uint8Array; code: StringColumn; name: StringColumn; filing: StringColumn | null; v0: Uint32Array; vn: Uint16Array }
  readonly #v: { rate: Uint32Array; from: Int32Array; to: Int32Array; src: Uint16Array }
  /** each authority version read so far, by version index: answers share them, frozen */
  readonly #versions: (Authority | undefined)[]
  readonly #src: StringColumn
  readonly #z: { zip: Uint32Array; state: Uint8Array; flags: Uint8Array; c0: Uint32Array; cn: Uint16Array; city: StringColumn; lat: Float64Array; lng: Float64Array }
  readonly #c: { cty: Uint32Array; plc: Uint32Array; w: Uint16Array; s0: Uint32Array; sn: Uint8Array; basis: Uint8Array | null }
  readonly #stack: Uint32Array
  readonly #g: { id: StringColumn; name: StringColumn }
  readonly #p: { state: Uint8Array; c: Uint32Array } | null
  readonly #q: { state: Uint8Array; cty: Uint32Array; plc: Uint32Array; s0: Uint32Array; sn: Uint8Array; miss: StringColumn; key: Uint32Array } | null
  readonly #x: { zip: Uint32Array; lo: Uint16Array; hi: Uint16Array; from: Int32Array; to: Int32Array; rec: Uint8Array; q: Uint32Array } | null
  readonly #a: { streets: StringColumn; ranges: AddressRanges } | null
  #plus4States: Set<number> | null = null
  #placeCandidates: Map<string, number[]> | null = null

  constructor(bytes: Uint8Array, label = 'rates.bin') {
    const r = new ContainerReader(bytes, 'rates', label)
    const codes = r.strings('st.code')
    this.states = Array.from({ length: codes.length }, (_, i) => codes.get(i))
    this.#k = { state: r.column('k.state', 'u8'), level: r.column('k.level', 'u8'), code: r.strings('k.code'), name: r.strings('k.name'), filing: r.has('k.filing.o') ? r.strings('k.filing') : null, v0: r.column('k.v0', 'u32'), vn: r.column('k.vn', 'u16') }
    this.#v = { rate: r.column('v.rate', 'u32'), from: r.column('v.from', 'i32'), to: r.column('v.to', 'i32'), src: r.column('v.src', 'u16') }
    this.#versions = new Array(this.#v.rate.length)
    this.#src = r.strings('src')
    this.#z = { zip: r.column('z.zip', 'u32'), state: r.column('z.state', 'u8'), flags: r.column('z.flags', 'u8'), c0: r.column('z.c0', 'u32'), cn: r.column('z.cn', 'u16'), city: r.strings('z.city'), lat: r.column('z.lat', 'f64'), lng: r.column('z.lng', 'f64') }
    this.#c = { cty: r.column('c.cty', 'u32'), plc: r.column('c.plc', 'u32'), w: r.column('c.w', 'u16'), s0: r.column('c.s0', 'u32'), sn: r.column('c.sn', 'u8'), basis: r.has('c.basis') ? r.column('c.basis', 'u8') : null }
    this.#stack = r.column('s.key', 'u32')
    this.#g = { id: r.strings('g.id'), name: r.strings('g.name') }
    this.#p = r.has('p.c') ? { state: r.column('p.state', 'u8'), c: r.column('p.c', 'u32') } : null
    this.#q = r.has('q.state')
      ? { state: r.column('q.state', 'u8'), cty: r.column('q.cty', 'u32'), plc: r.column('q.plc', 'u32'), s0: r.column('q.s0', 'u32'), sn: r.column('q.sn', 'u8'), miss: r.strings('q.miss'), key: r.column('q.key', 'u32') }
      : null
    this.#x = this.#q
      ? { zip: r.column('x.zip', 'u32'), lo: r.column('x.lo', 'u16'), hi: r.column('x.hi', 'u16'), from: r.column('x.from', 'i32'), to: r.column('x.to', 'i32'), rec: r.column('x.rec', 'u8'), q: r.column('x.q', 'u32') }
      : null
    this.#a = this.#q && r.has('a.zip')
      ? {
          streets: r.strings('a.street'),
          ranges: { zip: r.column('a.zip', 'u32'), street: r.column('a.st', 'u32'), low: r.column('a.lo', 'u32'), high: r.column('a.hi', 'u32'), side: r.column('a.side', 'u8'), from: r.column('a.from', 'i32'), to: r.column('a.to', 'i32'), binding: r.column('a.q', 'u32') },
        }
      : null
    this.#check(new SectionChecks(label))
  }

  /** Every cross-reference of the sections, checked once (section-checks.ts). */
  #check(check: SectionChecks): void {
    const k = this.#k, v = this.#v, z = this.#z, c = this.#c, p = this.#p, q = this.#q, x = this.#x, a = this.#a
    const states = this.states.length
    check.sameLength(k.state.length, { 'k.level': k.level, 'k.code': k.code, 'k.name': k.name, 'k.v0': k.v0, 'k.vn': k.vn, ...(k.filing ? { 'k.filing': k.filing } : {}) })
    check.indices('k.state', k.state, states)
    check.indices('k.level', k.level, LEVELS.length)
    check.ranges('k.v0', k.v0, k.vn, v.rate.length)
    check.contiguous('k.v0', k.v0, k.vn, 0, v.rate.length)
    check.sameLength(v.rate.length, { 'v.from': v.from, 'v.to': v.to, 'v.src': v.src })
    check.indices('v.rate', v.rate, MAX_RATE_UNITS + 1)
    check.indices('v.src', v.src, this.#src.length)
    for (let i = 0; i < v.from.length; i++) if (v.from[i] > v.to[i]) check.fail('v.from', i, 'the window starts after it ends')
    check.sameLength(z.zip.length, { 'z.state': z.state, 'z.flags': z.flags, 'z.c0': z.c0, 'z.cn': z.cn, 'z.city': z.city, 'z.lat': z.lat, 'z.lng': z.lng })
    check.indices('z.zip', z.zip, 100_000)
    check.indices('z.state', z.state, states)
    for (let i = 1; i < z.zip.length; i++) {
      if (z.zip[i] < z.zip[i - 1] || (z.zip[i] === z.zip[i - 1] && z.state[i] <= z.state[i - 1])) check.fail('z.zip', i, 'ZIP entries are out of (zip, state) order')
    }
    check.ranges('z.c0', z.c0, z.cn, c.cty.length)
    // The ZIPs' candidates first, in ZIP order, then one per place with no ZIP of its own.
    const placeCandidates = p ? p.c.length : 0
    check.contiguous('z.c0', z.c0, z.cn, 0, c.cty.length - placeCandidates)
    check.sameLength(c.cty.length, { 'c.plc': c.plc, 'c.w': c.w, 'c.s0': c.s0, 'c.sn': c.sn })
    check.indices('c.cty', c.cty, this.#g.id.length, NONE)
    check.indices('c.plc', c.plc, this.#g.id.length, NONE)
    check.indices('c.w', c.w, WEIGHT_SCALE + 1)
    if (c.basis) {
      check.sameLength(c.cty.length, { 'c.basis': c.basis })
      check.indices('c.basis', c.basis, CANDIDATE_BASES.length)
    }
    check.ranges('c.s0', c.s0, c.sn, this.#stack.length)
    check.contiguous('c.s0', c.s0, c.sn, 0, this.#stack.length)
    check.indices('s.key', this.#stack, k.state.length)
    check.sameLength(this.#g.id.length, { 'g.name': this.#g.name })
    // A stack names authorities of its own ZIP's state, each once, in ascending order (as written).
    const stackIn = (keys: Uint32Array, s0: Uint32Array, sn: Uint8Array) => (j: number, state: number, section: string, row: number) => {
      for (let s = s0[j]; s < s0[j] + sn[j]; s++) {
        const key = keys[s]
        if (k.state[key] !== state) check.fail(section, row, `candidate ${j} names authority ${key} of another state`)
        if (s > s0[j] && key <= keys[s - 1]) check.fail(section, row, `candidate ${j} names its authorities out of order or twice`)
      }
    }
    const stackOf = stackIn(this.#stack, c.s0, c.sn)
    for (let i = 0; i < z.zip.length; i++) for (let j = z.c0[i]; j < z.c0[i] + z.cn[i]; j++) stackOf(j, z.state[i], 'z.c0', i)
    if (p) {
      check.sameLength(p.state.length, { 'p.c': p.c })
      check.indices('p.state', p.state, states)
      check.indices('p.c', p.c, c.cty.length)
      for (let i = 0; i < p.c.length; i++) if (p.c[i] !== c.cty.length - p.c.length + i) check.fail('p.c', i, `names candidate ${p.c[i]}, not the place's own`)
      for (let i = 0; i < p.c.length; i++) stackOf(p.c[i], p.state[i], 'p.c', i)
    }
    if (q && x) {
      check.sameLength(q.state.length, { 'q.cty': q.cty, 'q.plc': q.plc, 'q.s0': q.s0, 'q.sn': q.sn, 'q.miss': q.miss })
      check.indices('q.state', q.state, states)
      check.sorted('q.state', q.state)
      check.indices('q.cty', q.cty, this.#g.id.length, NONE)
      check.indices('q.plc', q.plc, this.#g.id.length, NONE)
      check.contiguous('q.s0', q.s0, q.sn, 0, q.key.length)
      check.indices('q.key', q.key, k.state.length)
      const bindingStack = stackIn(q.key, q.s0, q.sn)
      for (let i = 0; i < q.state.length; i++) bindingStack(i, q.state[i], 'q.s0', i)
      check.sameLength(x.zip.length, { 'x.lo': x.lo, 'x.hi': x.hi, 'x.from': x.from, 'x.to': x.to, 'x.rec': x.rec, 'x.q': x.q })
      check.indices('x.zip', x.zip, 100_000)
      check.sorted('x.zip', x.zip)
      check.indices('x.hi', x.hi, 10_000)
      check.indices('x.rec', x.rec, PLUS4_RECORDS.length)
      check.indices('x.q', x.q, q.state.length)
      for (let i = 0; i < x.zip.length; i++) {
        if (x.lo[i] > x.hi[i]) check.fail('x.lo', i, `+4 range ${x.lo[i]}…${x.hi[i]} is reversed`)
        if (x.from[i] > x.to[i]) check.fail('x.from', i, 'the window starts after it ends')
      }
    }
    if (q && a) {
      const { streets, ranges: r } = a
      check.sameLength(r.zip.length, { 'a.st': r.street, 'a.lo': r.low, 'a.hi': r.high, 'a.side': r.side, 'a.from': r.from, 'a.to': r.to, 'a.q': r.binding })
      check.sortedStrings('a.street', streets)
      check.indices('a.zip', r.zip, 100_000)
      check.indices('a.st', r.street, streets.length)
      check.indices('a.side', r.side, ADDRESS_SIDES.length)
      check.indices('a.q', r.binding, q.state.length)
      for (let i = 0; i < r.zip.length; i++) {
        if (i > 0 && (r.zip[i] < r.zip[i - 1] || (r.zip[i] === r.zip[i - 1] && r.street[i] < r.street[i - 1]))) check.fail('a.zip', i, 'address ranges are out of (zip, street) order')
        if (r.low[i] > r.high[i]) check.fail('a.lo', i, `house range ${r.low[i]}…${r.high[i]} is reversed`)
        if (r.from[i] > r.to[i]) check.fail('a.from', i, 'the window starts after it ends')
      }
    }
  }

  get zipEntryCount(): number {
    return this.#z.zip.length
  }

  /** Every entry for a ZIP: one per state holding it (two for a straddling ZIP served by both). */
  lookupZip(zip: string): ZipEntry[] {
    const target = Number(zip)
    const zips = this.#z.zip
    const lo = lowerBound(zips.length, (i) => zips[i] < target)
    const found: ZipEntry[] = []
    for (let i = lo; i < zips.length && zips[i] === target; i++) found.push(this.entryAt(i))
    return found
  }

  /** The states holding any ZIP that starts with these three digits (USPS assigns prefixes by state). */
  statesOfZipPrefix(prefix: string): string[] {
    const first = Number(prefix) * 100
    const zips = this.#z.zip
    const found = new Set<string>()
    for (let i = lowerBound(zips.length, (i) => zips[i] < first); i < zips.length && zips[i] < first + 100; i++) found.add(this.states[this.#z.state[i]])
    return [...found]
  }

  entryAt(i: number): ZipEntry {
    const z = this.#z
    const candidates: Candidate[] = []
    for (let j = z.c0[i]; j < z.c0[i] + z.cn[i]; j++) candidates.push(this.#candidateAt(j))
    return {
      zip: String(z.zip[i]).padStart(5, '0'),
      state: this.states[z.state[i]],
      city: z.city.get(i),
      lat: Number.isNaN(z.lat[i]) ? null : z.lat[i],
      lng: Number.isNaN(z.lng[i]) ? null : z.lng[i],
      straddles: (z.flags[i] & ZIP_FLAG.straddles) !== 0,
      zcta: (z.flags[i] & ZIP_FLAG.notZcta) === 0,
      unlisted: (z.flags[i] & ZIP_FLAG.unlisted) !== 0,
      candidates,
    }
  }

  /** Indices of ZIP entries of one state, in ZIP order. */
  *entriesOfState(state: string): Generator<number> {
    const s = this.states.indexOf(state)
    for (let i = 0; i < this.#z.zip.length; i++) if (this.#z.state[i] === s) yield i
  }

  /** The candidates of a place with no ZIP of its own, one per county it lies in (none for any other place). */
  placeCandidates(state: string, geoid: string): Candidate[] {
    if (!this.#p) return []
    if (!this.#placeCandidates) {
      const byPlace = new Map<string, number[]>()
      for (let i = 0; i < this.#p.c.length; i++) {
        const j = this.#p.c[i]
        const key = `${this.states[this.#p.state[i]]}|${this.#g.id.get(this.#c.plc[j])}`
        const list = byPlace.get(key)
        if (list) list.push(j)
        else byPlace.set(key, [j])
      }
      this.#placeCandidates = byPlace
    }
    return (this.#placeCandidates.get(`${state}|${geoid}`) ?? []).map((j) => this.#candidateAt(j))
  }

  /** Every place candidate of one state (see placeCandidates). */
  *placeCandidatesOfState(state: string): Generator<Candidate> {
    if (!this.#p) return
    const s = this.states.indexOf(state)
    for (let i = 0; i < this.#p.c.length; i++) if (this.#p.state[i] === s) yield this.#candidateAt(this.#p.c[i])
  }

  /** True when the state's data holds ZIP+4 ranges (a boundary file with Z or 4 records was read). */
  hasPlus4(state: string): boolean {
    const x = this.#x
    const q = this.#q
    if (!x || !q) return false
    if (!this.#plus4States) {
      this.#plus4States = new Set()
      for (let i = 0; i < x.q.length; i++) this.#plus4States.add(q.state[x.q[i]])
    }
    return this.#plus4States.has(this.states.indexOf(state))
  }

  /** The address ranges of the state's boundary file that hold house `house` of `street` (a street key) in the ZIP and are in force on `isoDate`. */
  addressMatches(zip5: string, street: string, house: number, state: string, isoDate: string): AddressMatch[] {
    const r = this.#a?.ranges
    const q = this.#q
    const first = this.#firstStreetRow(zip5, street)
    if (!r || !q || first < 0) return []
    const s = this.states.indexOf(state)
    const day = dayNumber(isoDate)
    const found: AddressMatch[] = []
    for (let i = first; i < r.zip.length && r.zip[i] === r.zip[first] && r.street[i] === r.street[first]; i++) {
      const binding = r.binding[i]
      if (q.state[binding] !== s || day < r.from[i] || day > r.to[i] || !rangeHolds(r, i, house)) continue
      const miss = q.miss.get(binding)
      found.push({ binding, candidate: this.#bindingAt(binding), unrated: miss ? miss.split(',') : [], read: ADDRESS_SIDES[r.side[i]] !== 'unread' })
    }
    return found
  }

  /** The ranges of the state's boundary file that hold ZIP+4 `zip5`-`plus4` and are in force on `isoDate`. */
  plus4Matches(zip5: string, plus4: number, state: string, isoDate: string): Plus4Match[] {
    const x = this.#x
    const q = this.#q
    if (!x || !q) return []
    const target = Number(zip5)
    const s = this.states.indexOf(state)
    const day = dayNumber(isoDate)
    const found: Plus4Match[] = []
    for (let i = lowerBound(x.zip.length, (i) => x.zip[i] < target); i < x.zip.length && x.zip[i] === target; i++) {
      const binding = x.q[i]
      if (q.state[binding] !== s || plus4 < x.lo[i] || plus4 > x.hi[i] || day < x.from[i] || day > x.to[i]) continue
      const miss = q.miss.get(binding)
      found.push({ record: PLUS4_RECORDS[x.rec[i]]!, binding, candidate: this.#bindingAt(binding), unrated: miss ? miss.split(',') : [] })
    }
    return found
  }

  /** True when some address range of any date lies on `street` (a street key) in the ZIP. */
  hasStreet(zip5: string, street: string): boolean {
    return this.#firstStreetRow(zip5, street) >= 0
  }

  /** The first address range on the street in the ZIP, -1 when none is. */
  #firstStreetRow(zip5: string, street: string): number {
    if (!this.#a) return -1
    const { streets, ranges: r } = this.#a
    const id = lowerBound(streets.length, (i) => streets.get(i) < street)
    if (id === streets.length || streets.get(id) !== street) return -1
    const zip = Number(zip5)
    const first = lowerBound(r.zip.length, (i) => r.zip[i] < zip || (r.zip[i] === zip && r.street[i] < id))
    return first < r.zip.length && r.zip[first] === zip && r.street[first] === id ? first : -1
  }

  /** The state's ZIP+4 bindings and ranges as the writer was given them (carried forward unchanged); null when it has none. */
  plus4OfState(state: string): Plus4Table | null {
    const x = this.#x
    const q = this.#q
    const s = this.states.indexOf(state)
    if (!x || !q || !q.state.includes(s)) return null
    const first = q.state.indexOf(s)
    const bindings: Plus4Binding[] = []
    for (let i = first; i < q.state.length && q.state[i] === s; i++) {
      const candidate = this.#bindingAt(i)
      const miss = q.miss.get(i)
      bindings.push({
        countyFips: candidate.county?.fips || null,
        countyName: candidate.county?.name ?? '',
        placeFips: candidate.place?.geoid || null,
        placeName: candidate.place?.name ?? '',
        stack: candidate.stack.map((key) => ({ level: LEVELS[this.#k.level[key]]!, code: this.#k.code.get(key) })),
        unrated: miss ? miss.split(',') : [],
      })
    }
    const builder = new Plus4RangeBuilder()
    for (let i = 0; i < x.zip.length; i++) {
      if (q.state[x.q[i]] !== s) continue
      builder.push({ zip: x.zip[i], low: x.lo[i], high: x.hi[i], from: x.from[i], to: x.to[i], record: PLUS4_RECORDS[x.rec[i]]!, binding: x.q[i] - first })
    }
    const addresses = new AddressRangeBuilder()
    const a = this.#a
    for (let i = 0; a && i < a.ranges.zip.length; i++) {
      if (q.state[a.ranges.binding[i]] === s) addresses.push(addressRowAt((id) => a.streets.get(id), a.ranges, i, -first))
    }
    return { bindings, ranges: builder.finish(), ...(addresses.length > 0 ? { addresses: addresses.finish() } : {}) }
  }

  /** The filing code of the state's authority (level, code) when the index holds one of its own; null otherwise. */
  filingCode(state: string, level: Level, code: string): string | null {
    const filing = this.#k.filing
    if (!filing) return null
    // Authorities are written in the order of their `state|level|code` text.
    const sought = `${state}|${level}|${code}`
    const idOf = (key: number) => `${this.states[this.#k.state[key]]}|${LEVELS[this.#k.level[key]]}|${this.#k.code.get(key)}`
    let lo = 0
    let hi = this.#k.state.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const id = idOf(mid)
      if (id === sought) return filing.get(mid) || null
      if (id < sought) lo = mid + 1
      else hi = mid - 1
    }
    return null
  }

  /** Every version of every authority of one state. */
  authoritiesOfState(state: string): Authority[] {
    const s = this.states.indexOf(state)
    const list: Authority[] = []
    for (let key = 0; key < this.#k.state.length; key++) {
      if (this.#k.state[key] !== s) continue
      for (let v = this.#k.v0[key]; v < this.#k.v0[key] + this.#k.vn[key]; v++) list.push(this.#authority(key, v))
    }
    return list
  }

  #candidateAt(j: number): Candidate {
    const c = this.#c
    return {
      county: this.#county(c.cty[j]),
      place: this.#place(c.plc[j]),
      weight: c.w[j] / WEIGHT_SCALE,
      basis: c.basis ? (CANDIDATE_BASES[c.basis[j]] ?? 'published') : 'published',
      stack: keysOf(this.#stack, c.s0[j], c.sn[j]),
    }
  }

  /** A ZIP+4 binding as a candidate (weight 1): its county, place and stack. */
  #bindingAt(i: number): Candidate {
    const q = this.#q!
    return { county: this.#county(q.cty[i]), place: this.#place(q.plc[i]), weight: 1, basis: 'published', stack: keysOf(q.key, q.s0[i], q.sn[i]) }
  }

  #county(index: number): Candidate['county'] {
    return index === NONE ? null : { fips: this.#g.id.get(index), name: this.#g.name.get(index) }
  }

  #place(index: number): Candidate['place'] {
    return index === NONE ? null : { geoid: this.#g.id.get(index), name: this.#g.name.get(index) }
  }

  /** The version of each stacked authority in force on `isoDate`; authorities with no version then are left out. */
  authoritiesOn(stack: number[], isoDate: string): Authority[] {
    const day = dayNumber(isoDate)
    const out: Authority[] = []
    for (const key of stack) {
      const v = this.#versionOn(key, day)
      if (v >= 0) out.push(this.#authority(key, v))
    }
    return out
  }

  /** Every version of every stacked authority (history). */
  authorityHistory(stack: number[]): Authority[] {
    return stack.flatMap((key) => {
      const list: Authority[] = []
      for (let v = this.#k.v0[key]; v < this.#k.v0[key] + this.#k.vn[key]; v++) list.push(this.#authority(key, v))
      return list
    })
  }

  /** Sum of the rates in force on `isoDate` (integer units). */
  combinedRate(stack: number[], isoDate: string): number {
    const day = dayNumber(isoDate)
    let total = 0
    for (const key of stack) {
      const v = this.#versionOn(key, day)
      if (v >= 0) total += this.#v.rate[v]
    }
    return total
  }

  #versionOn(key: number, day: number): number {
    const { v0, vn } = this.#k
    // A later start wins when windows overlap (a correction posted as a new row).
    for (let v = v0[key] + vn[key] - 1; v >= v0[key]; v--) {
      if (this.#v.from[v] <= day && day <= this.#v.to[v]) return v
    }
    return -1
  }

  #authority(key: number, v: number): Authority {
    return (this.#versions[v] ??= Object.freeze(this.#versionOf(key, v)))
  }

  #versionOf(key: number, v: number): Authority {
    const from = this.#v.from[v]
    const to = this.#v.to[v]
    return {
      level: LEVELS[this.#k.level[key]],
      code: this.#k.code.get(key),
      name: this.#k.name.get(key),
      rate: this.#v.rate[v],
      from: from === OPEN_FROM ? null : isoFromDayNumber(from),
      to: to === OPEN_TO ? null : isoFromDayNumber(to),
      source: this.#src.get(this.#v.src[v]),
    }
  }

}

/** The `count` authority keys from `start`, as a plain array. */
function keysOf(keys: Uint32Array, start: number, count: number): number[] {
  const stack = new Array<number>(count)
  for (let i = 0; i < count; i++) stack[i] = keys[start + i]
  return stack
}
