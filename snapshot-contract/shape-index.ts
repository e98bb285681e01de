// shapes.bin: county and place polygons for coordinate lookups.
//
// Sections:
//   st.code strings
//   sh.id strings · sh.kind u8 (0 county, 1 place) · sh.state u8 · sh.r0 u32 · sh.rn u32
//                                                            rings r[sh.r0 … sh.r0 + sh.rn)
//   r.p0 u32 · r.pn u32                                      points pt[r.p0 … r.p0 + r.pn)
//   pt i32                                                    lng, lat pairs in microdegrees
//   sh.tree u8                                                the shapes' bounding boxes (west,
//                                                             south, east, north in degrees) as a
//                                                             flatbush tree, box i for shape i
// Rings are filled even-odd, so holes and multipolygons need no extra structure. Shapes are
// ordered counties first, each layer by id, which is the order `at` reports them in.
import type Flatbush from 'flatbush'
import { boxesAt, boxTreeBytes, buildBoxTree, openBoxTree } from './box-tree.ts'
import { ContainerReader, ContainerWriter, FormatError, type StringColumn } from './format.ts'
import type { GeoShape } from './geography-model.ts'
import { SectionChecks } from './section-checks.ts'

export const SHAPE_KIND = ['county', 'place'] as const
export type ShapeKind = (typeof SHAPE_KIND)[number]

const MICRO = 1e6

export function writeShapeIndex(layers: { county: GeoShape[]; place: GeoShape[] }): Buffer {
  const shapes = [
    ...[...layers.county].sort((a, b) => a.id.localeCompare(b.id)).map((shape) => ({ kind: 0, shape })),
    ...[...layers.place].sort((a, b) => a.id.localeCompare(b.id)).map((shape) => ({ kind: 1, shape })),
  ]
  const states = [...new Set(shapes.map(({ shape }) => shape.state))].sort()
  const r0: number[] = []
  const rn: number[] = []
  const p0: number[] = []
  const pn: number[] = []
  let pointCount = 0
  for (const { shape } of shapes) {
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
      for (let i = 0; i < ring.length; i++) points[at++] = Math.round(ring[i] * MICRO)
    }
  }
  const tree = buildBoxTree(shapes.length, (i) => shapes[i].shape.bbox)
  return new ContainerWriter('shapes')
    .strings('st.code', states)
    .strings('sh.id', shapes.map(({ shape }) => shape.id))
    .column('sh.kind', 'u8', shapes.map(({ kind }) => kind))
    .column('sh.state', 'u8', shapes.map(({ shape }) => states.indexOf(shape.state)))
    .column('sh.r0', 'u32', r0)
    .column('sh.rn', 'u32', rn)
    .column('r.p0', 'u32', p0)
    .column('r.pn', 'u32', pn)
    .column('pt', 'i32', points)
    .column('sh.tree', 'u8', boxTreeBytes(tree))
    .toBuffer()
}

export type ShapeHit = { id: string; kind: ShapeKind; state: string }

export class ShapeIndex {
  readonly #states: string[]
  readonly #id: StringColumn
  readonly #kind: Uint8Array
  readonly #state: Uint8Array
  readonly #r0: Uint32Array
  readonly #rn: Uint32Array
  readonly #p0: Uint32Array
  readonly #pn: Uint32Array
  readonly #pt: Int32Array
  readonly #tree: Flatbush | null

  constructor(bytes: Uint8Array, label = 'shapes.bin') {
    const r = new ContainerReader(bytes, 'shapes', label)
    const codes = r.strings('st.code')
    this.#states = Array.from({ length: codes.length }, (_, i) => codes.get(i))
    this.#id = r.strings('sh.id')
    this.#kind = r.column('sh.kind', 'u8')
    this.#state = r.column('sh.state', 'u8')
    this.#r0 = r.column('sh.r0', 'u32')
    this.#rn = r.column('sh.rn', 'u32')
    this.#p0 = r.column('r.p0', 'u32')
    this.#pn = r.column('r.pn', 'u32')
    this.#pt = r.column('pt', 'i32')
    const check = new SectionChecks(label)
    const shapes = this.#kind.length
    check.sameLength(shapes, { 'sh.id': this.#id, 'sh.state': this.#state, 'sh.r0': this.#r0, 'sh.rn': this.#rn })
    check.indices('sh.kind', this.#kind, SHAPE_KIND.length)
    check.indices('sh.state', this.#state, this.#states.length)
    check.ranges('sh.r0', this.#r0, this.#rn, this.#p0.length)
    check.sameLength(this.#p0.length, { 'r.pn': this.#pn })
    if (this.#pt.length % 2 !== 0) throw new FormatError(`${label}: section pt holds ${this.#pt.length} values, not lng, lat pairs`)
    check.ranges('r.p0', this.#p0, this.#pn, this.#pt.length / 2)
    this.#tree = openBoxTree(r.column('sh.tree', 'u8'), shapes, `${label}: section sh.tree`)
  }

  get size(): number {
    return this.#kind.length
  }

  /** Every shape containing the point, counties first. */
  at(lng: number, lat: number): ShapeHit[] {
    const x = Math.round(lng * MICRO)
    const y = Math.round(lat * MICRO)
    return boxesAt(this.#tree, lng, lat)
      .filter((s) => this.#contains(s, x, y))
      .map((s) => ({ id: this.#id.get(s), kind: SHAPE_KIND[this.#kind[s]], state: this.#states[this.#state[s]] }))
  }

  #contains(s: number, x: number, y: number): boolean {
    let inside = false
    const pt = this.#pt
    for (let r = this.#r0[s]; r < this.#r0[s] + this.#rn[s]; r++) {
      const start = this.#p0[r]
      const count = this.#pn[r]
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
}
