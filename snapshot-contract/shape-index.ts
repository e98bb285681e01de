// shapes.bin: county and place polygons for coordinate lookups.
//
// Sections:
//   st.code strings
//   sh.id strings · sh.kind u8 (0 county, 1 place) · sh.state u8 · sh.bbox f64 (4 per shape:
//   west, south, east, north) · sh.r0 u32 · sh.rn u32      rings r[sh.r0 … sh.r0 + sh.rn)
//   r.p0 u32 · r.pn u32                                      points pt[r.p0 … r.p0 + r.pn)
//   pt i32                                                    lng, lat pairs in microdegrees
//   g.size f64 (1)                                            grid cell edge in degrees
//   g.key u32 · g.i0 u32 (count + 1) · g.ids u32              non-empty grid cells by ascending key
//                                                             (row × columns + column, from 180°W,
//                                                             90°S); cell k lists the shapes
//                                                             g.ids[g.i0[k] … g.i0[k + 1]) whose
//                                                             bbox touches it, ascending
//   g.wide u32                                                shapes whose bbox spans too many cells
//                                                             to list (the Aleutians cross 180°);
//                                                             candidates of every query
// Rings are filled even-odd, so holes and multipolygons need no extra structure. Shapes are
// ordered counties first, each layer by id, which is the order `at` reports them in.
import { ContainerReader, ContainerWriter, FormatError, type StringColumn } from './format.ts'
import type { GeoShape } from './geography-model.ts'
import { lowerBound } from './lower-bound.ts'
import { SectionChecks } from './section-checks.ts'

export const SHAPE_KIND = ['county', 'place'] as const
export type ShapeKind = (typeof SHAPE_KIND)[number]

const MICRO = 1e6

/** A coordinate in the file's integer microdegrees, as the points are stored. */
export const toMicrodegrees = (degrees: number) => Math.round(degrees * MICRO)

const CELL_DEGREES = 0.25
/** 64 × 64 cells (16° at 0.25°): no US county or place but the antimeridian-crossing ones is wider. */
const MAX_CELLS_PER_SHAPE = 4096

export function writeShapeIndex(layers: { county: GeoShape[]; place: GeoShape[] }): Buffer {
  const shapes = [
    ...[...layers.county].sort((a, b) => a.id.localeCompare(b.id)).map((shape) => ({ kind: 0, shape })),
    ...[...layers.place].sort((a, b) => a.id.localeCompare(b.id)).map((shape) => ({ kind: 1, shape })),
  ]
  const states = [...new Set(shapes.map(({ shape }) => shape.state))].sort()
  const bbox: number[] = []
  const r0: number[] = []
  const rn: number[] = []
  const p0: number[] = []
  const pn: number[] = []
  let pointCount = 0
  for (const { shape } of shapes) {
    bbox.push(...shape.bbox)
    r0.push(p0.length)
    rn.push(shape.rings.length)
    for (const ring of shape.rings) {
      p0.push(pointCount)
      pn.push(ring.length / 2)
      pointCount += ring.length / 2
    }
  }
  const points = new Int32Array(pointCount * 2)
  let at = 0
  for (const { shape } of shapes) {
    for (const ring of shape.rings) {
      for (let i = 0; i < ring.length; i++) points[at++] = toMicrodegrees(ring[i])
    }
  }
  const grid = buildGrid(shapes.map(({ shape }) => shape.bbox), new CellGrid(CELL_DEGREES))
  return new ContainerWriter('shapes')
    .strings('st.code', states)
    .strings('sh.id', shapes.map(({ shape }) => shape.id))
    .column('sh.kind', 'u8', shapes.map(({ kind }) => kind))
    .column('sh.state', 'u8', shapes.map(({ shape }) => states.indexOf(shape.state)))
    .column('sh.bbox', 'f64', bbox)
    .column('sh.r0', 'u32', r0)
    .column('sh.rn', 'u32', rn)
    .column('r.p0', 'u32', p0)
    .column('r.pn', 'u32', pn)
    .column('pt', 'i32', points)
    .column('g.size', 'f64', [CELL_DEGREES])
    .column('g.key', 'u32', grid.keys)
    .column('g.i0', 'u32', grid.starts)
    .column('g.ids', 'u32', grid.ids)
    .column('g.wide', 'u32', grid.wide)
    .toBuffer()
}

/**
 * Cell numbering shared by writer and reader. Column and row are clamped monotone functions of
 * lng and lat, so a point inside a bbox always falls in one of the cells the bbox was listed in.
 */
class CellGrid {
  readonly columns: number
  readonly rows: number

  constructor(readonly degrees: number) {
    this.columns = Math.ceil(360 / degrees)
    this.rows = Math.ceil(180 / degrees)
  }

  column(lng: number): number {
    return Math.min(this.columns - 1, Math.max(0, Math.floor((lng + 180) / this.degrees)))
  }

  row(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((lat + 90) / this.degrees)))
  }
}

function buildGrid(bboxes: readonly GeoShape['bbox'][], grid: CellGrid) {
  const cells = new Map<number, number[]>()
  const wide: number[] = []
  bboxes.forEach(([west, south, east, north], shape) => {
    const x0 = grid.column(west), x1 = grid.column(east)
    const y0 = grid.row(south), y1 = grid.row(north)
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS_PER_SHAPE) {
      wide.push(shape)
      return
    }
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const key = y * grid.columns + x
        const list = cells.get(key)
        if (list) list.push(shape)
        else cells.set(key, [shape])
      }
    }
  })
  // Shapes were visited in ascending order, so every cell's list is already ascending.
  const keys = [...cells.keys()].sort((a, b) => a - b)
  const starts = [0]
  const ids: number[] = []
  for (const key of keys) {
    ids.push(...cells.get(key)!)
    starts.push(ids.length)
  }
  return { keys, starts, ids, wide }
}

export type ShapeHit = { id: string; kind: ShapeKind; state: string }

/** The sections holding the outlines: shape s has rings r0[s] … r0[s] + rn[s], ring r the points p0[r] … p0[r] + pn[r] of pt. */
export type ShapeRings = { r0: Uint32Array; rn: Uint32Array; p0: Uint32Array; pn: Uint32Array; pt: Int32Array }

export function readShapeRings(r: ContainerReader): ShapeRings {
  return { r0: r.column('sh.r0', 'u32'), rn: r.column('sh.rn', 'u32'), p0: r.column('r.p0', 'u32'), pn: r.column('r.pn', 'u32'), pt: r.column('pt', 'i32') }
}

/** Whether shape `s` holds the point (x, y) in microdegrees: even-odd over all its rings. */
export function ringsContain({ r0, rn, p0, pn, pt }: ShapeRings, s: number, x: number, y: number): boolean {
  let inside = false
  for (let r = r0[s]; r < r0[s] + rn[s]; r++) {
    const start = p0[r]
    const count = pn[r]
    for (let i = 0, j = count - 1; i < count; j = i++) {
      const xi = pt[(start + i) * 2]
      const yi = pt[(start + i) * 2 + 1]
      const xj = pt[(start + j) * 2]
      const yj = pt[(start + j) * 2 + 1]
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
    }
  }
  return inside
}

export class ShapeIndex {
  readonly #states: string[]
  readonly #id: StringColumn
  readonly #kind: Uint8Array
  readonly #state: Uint8Array
  readonly #bbox: Float64Array
  readonly #rings: ShapeRings
  readonly #grid: CellGrid
  readonly #cellKey: Uint32Array
  readonly #cellStart: Uint32Array
  readonly #cellIds: Uint32Array
  readonly #wide: Uint32Array

  constructor(bytes: Uint8Array, label = 'shapes.bin') {
    const r = new ContainerReader(bytes, 'shapes', label)
    const codes = r.strings('st.code')
    this.#states = Array.from({ length: codes.length }, (_, i) => codes.get(i))
    this.#id = r.strings('sh.id')
    this.#kind = r.column('sh.kind', 'u8')
    this.#state = r.column('sh.state', 'u8')
    this.#bbox = r.column('sh.bbox', 'f64')
    this.#rings = readShapeRings(r)
    const { r0, rn, p0, pn, pt } = this.#rings
    this.#grid = new CellGrid(r.column('g.size', 'f64')[0])
    this.#cellKey = r.column('g.key', 'u32')
    this.#cellStart = r.column('g.i0', 'u32')
    this.#cellIds = r.column('g.ids', 'u32')
    this.#wide = r.column('g.wide', 'u32')
    const check = new SectionChecks(label)
    const shapes = this.#kind.length
    check.sameLength(shapes, { 'sh.id': this.#id, 'sh.state': this.#state, 'sh.r0': r0, 'sh.rn': rn })
    check.sameLength(shapes * 4, { 'sh.bbox': this.#bbox })
    check.indices('sh.kind', this.#kind, SHAPE_KIND.length)
    check.indices('sh.state', this.#state, this.#states.length)
    check.ranges('sh.r0', r0, rn, p0.length)
    check.sameLength(p0.length, { 'r.pn': pn })
    if (pt.length % 2 !== 0) throw new FormatError(`${label}: section pt holds ${pt.length} values, not lng, lat pairs`)
    check.ranges('r.p0', p0, pn, pt.length / 2)
    const size = r.column('g.size', 'f64')
    if (size.length !== 1 || !(size[0] > 0 && size[0] <= 360)) throw new FormatError(`${label}: section g.size holds no grid cell size`)
    check.sorted('g.key', this.#cellKey, true)
    check.indices('g.key', this.#cellKey, this.#grid.columns * this.#grid.rows)
    check.sameLength(this.#cellKey.length + 1, { 'g.i0': this.#cellStart })
    check.offsets('g.i0', this.#cellStart, this.#cellIds.length)
    check.indices('g.ids', this.#cellIds, shapes)
    check.sorted('g.wide', this.#wide, true)
    check.indices('g.wide', this.#wide, shapes)
  }

  get size(): number {
    return this.#kind.length
  }

  /** Every shape containing the point, counties first. */
  at(lng: number, lat: number): ShapeHit[] {
    const hits: ShapeHit[] = []
    const x = toMicrodegrees(lng)
    const y = toMicrodegrees(lat)
    const ids = this.#cellIds
    const wide = this.#wide
    let [i, end] = this.#cellRange(lng, lat)
    let w = 0
    // Merge the cell's list with the wide shapes, both ascending, to keep the file's shape order.
    while (i < end || w < wide.length) {
      const s = w === wide.length || (i < end && ids[i] < wide[w]) ? ids[i++] : wide[w++]
      const b = s * 4
      if (lng < this.#bbox[b] || lng > this.#bbox[b + 2] || lat < this.#bbox[b + 1] || lat > this.#bbox[b + 3]) continue
      if (ringsContain(this.#rings, s, x, y)) hits.push(this.hit(s))
    }
    return hits
  }

  /** Shape `s` (in file order) as `at` reports it. */
  hit(s: number): ShapeHit {
    return { id: this.#id.get(s), kind: SHAPE_KIND[this.#kind[s]], state: this.#states[this.#state[s]] }
  }

  /** The g.ids range of the point's cell; empty when no shape's bbox touches the cell. */
  #cellRange(lng: number, lat: number): [number, number] {
    const key = this.#grid.row(lat) * this.#grid.columns + this.#grid.column(lng)
    const keys = this.#cellKey
    const lo = lowerBound(keys.length, (i) => keys[i] < key)
    if (lo === keys.length || keys[lo] !== key) return [0, 0]
    return [this.#cellStart[lo], this.#cellStart[lo + 1]]
  }
}
