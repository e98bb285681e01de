// Nearest ZIP centroid to a point, among ZIPs holding a candidate a predicate accepts.
// A uniform grid over a list of centroids is built on first use and kept in a WeakMap keyed by the
// list (a state's list is held by the snapshot's facts, so it goes away with the snapshot). The
// search visits rings of cells around the point and stops once no unvisited cell can be closer;
// it answers exactly what a scan of the whole list would, ties going to the earlier point.
import { KM_PER_DEGREE } from '../../snapshot-contract/geo-distance.ts'
import type { ZipPoint } from './snapshot-facts.ts'

export type CandidateMatch = (candidate: ZipPoint['candidates'][number]) => boolean

export type NearestZip = { point: ZipPoint; index: number; distanceKm: number }

/** About two centroids per cell on average (cities hold many more, rural cells none). */
const POINTS_PER_CELL = 2
/** Cell edges and point cells are computed separately in floating point; never trust a gap closer than this. */
const EDGE_SLACK_DEGREES = 1e-9

class CentroidGrid {
  readonly west: number
  readonly south: number
  readonly degrees: number
  readonly columns: number
  readonly rows: number
  /** points of cell c: order[start[c] … start[c + 1]), ascending point index */
  readonly start: Uint32Array
  readonly order: Uint32Array

  constructor(readonly points: readonly ZipPoint[]) {
    let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity
    for (const { lat, lng } of points) {
      west = Math.min(west, lng)
      east = Math.max(east, lng)
      south = Math.min(south, lat)
      north = Math.max(north, lat)
    }
    const area = Math.max((east - west) * (north - south), 1e-6)
    this.west = west
    this.south = south
    this.degrees = Math.max(Math.sqrt((area * POINTS_PER_CELL) / Math.max(points.length, 1)), 0.01)
    this.columns = Math.floor((east - west) / this.degrees) + 1
    this.rows = Math.floor((north - south) / this.degrees) + 1
    const cellOf = points.map(({ lat, lng }) => this.row(lat) * this.columns + this.column(lng))
    this.start = new Uint32Array(this.columns * this.rows + 1)
    for (const cell of cellOf) this.start[cell + 1]++
    for (let c = 0; c < this.columns * this.rows; c++) this.start[c + 1] += this.start[c]
    const filled = this.start.slice(0, -1)
    this.order = new Uint32Array(points.length)
    cellOf.forEach((cell, i) => (this.order[filled[cell]++] = i))
  }

  column(lng: number): number {
    return Math.floor((lng - this.west) / this.degrees)
  }

  row(lat: number): number {
    return Math.floor((lat - this.south) / this.degrees)
  }
}

const GRIDS = new WeakMap<readonly ZipPoint[], CentroidGrid>()

function gridOf(points: readonly ZipPoint[]): CentroidGrid {
  let grid = GRIDS.get(points)
  if (!grid) {
    grid = new CentroidGrid(points)
    GRIDS.set(points, grid)
  }
  return grid
}

const COUNTY_LISTS = new WeakMap<readonly ZipPoint[], Map<string, readonly ZipPoint[]>>()

/**
 * The points with a candidate in the county, in list order. A search for a county's ZIPs runs on
 * this short list: over the whole state it would visit every centroid when the county has none.
 */
export function zipPointsInCounty(points: readonly ZipPoint[], county: string): readonly ZipPoint[] {
  let byCounty = COUNTY_LISTS.get(points)
  if (!byCounty) {
    const lists = new Map<string, ZipPoint[]>()
    for (const point of points) {
      for (const fips of new Set(point.candidates.map((c) => c.county))) {
        if (fips === null) continue
        const list = lists.get(fips)
        if (list) list.push(point)
        else lists.set(fips, [point])
      }
    }
    byCounty = lists
    COUNTY_LISTS.set(points, byCounty)
  }
  return byCounty.get(county) ?? []
}

/** The nearest point holding a candidate that `match` accepts, no farther than `maxKm`; null if none. */
export function nearestZip(points: readonly ZipPoint[], lat: number, lng: number, match: CandidateMatch, maxKm = Infinity): NearestZip | null {
  if (points.length === 0) return null
  const grid = gridOf(points)
  const cosLat = Math.cos((lat * Math.PI) / 180)
  const limit = (maxKm / KM_PER_DEGREE) ** 2
  const qc = grid.column(lng)
  const qr = grid.row(lat)
  let best = -1
  let bestCandidate = -1
  let bestDistance = Infinity

  const visit = (cell: number) => {
    for (let k = grid.start[cell]; k < grid.start[cell + 1]; k++) {
      const i = grid.order[k]
      const point = points[i]
      const distance = (point.lat - lat) ** 2 + ((point.lng - lng) * cosLat) ** 2
      if (distance > limit || distance > bestDistance || (distance === bestDistance && i > best)) continue
      const candidate = point.candidates.findIndex(match)
      if (candidate < 0) continue
      best = i
      bestCandidate = candidate
      bestDistance = distance
    }
  }
  const visitRow = (r: number, c0: number, c1: number) => {
    if (r < 0 || r >= grid.rows) return
    for (let c = Math.max(c0, 0); c <= Math.min(c1, grid.columns - 1); c++) visit(r * grid.columns + c)
  }
  const visitColumn = (c: number, r0: number, r1: number) => {
    if (c < 0 || c >= grid.columns) return
    for (let r = Math.max(r0, 0); r <= Math.min(r1, grid.rows - 1); r++) visit(r * grid.columns + c)
  }
  /** Distance² below which nothing lies outside the cells within `ring` of the point's cell. */
  const clearance = (ring: number) => {
    const west = grid.west + (qc - ring) * grid.degrees
    const east = grid.west + (qc + ring + 1) * grid.degrees
    const south = grid.south + (qr - ring) * grid.degrees
    const north = grid.south + (qr + ring + 1) * grid.degrees
    const latGap = Math.min(lat - south, north - lat)
    const lngGap = Math.min(lng - west, east - lng) * cosLat
    return Math.max(Math.min(latGap, lngGap) - EDGE_SLACK_DEGREES, 0) ** 2
  }

  // Rings nearer than the grid hold no cell; rings past `last` add none.
  const first = Math.max(0, -qc, qc - (grid.columns - 1), -qr, qr - (grid.rows - 1))
  const last = Math.max(qc, grid.columns - 1 - qc, qr, grid.rows - 1 - qr)
  for (let ring = first; ring <= last; ring++) {
    if (ring > 0) {
      const reach = clearance(ring - 1)
      if (reach > limit || reach > bestDistance) break
    }
    if (ring === 0) {
      visitRow(qr, qc, qc)
      continue
    }
    visitRow(qr - ring, qc - ring, qc + ring)
    visitRow(qr + ring, qc - ring, qc + ring)
    visitColumn(qc - ring, qr - ring + 1, qr + ring - 1)
    visitColumn(qc + ring, qr - ring + 1, qr + ring - 1)
  }
  if (best < 0) return null
  return { point: points[best], index: bestCandidate, distanceKm: Math.sqrt(bestDistance) * KM_PER_DEGREE }
}
