// Point-in-polygon over GeoShape (flat lng/lat rings, even-odd fill), a grid index for many shapes,
// and a representative point guaranteed to lie inside a shape.
import type { GeoShape } from '../../snapshot-contract/geography-model.ts'

export function bboxOfRings(rings: Float64Array[]): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i += 2) {
      const x = ring[i]!, y = ring[i + 1]!
      if (x < minX) minX = x
      if (x > maxX) maxX = x
      if (y < minY) minY = y
      if (y > maxY) maxY = y
    }
  }
  return [minX, minY, maxX, maxY]
}

export function bboxContains(bbox: GeoShape['bbox'], lng: number, lat: number): boolean {
  return lng >= bbox[0] && lng <= bbox[2] && lat >= bbox[1] && lat <= bbox[3]
}

/** Even-odd ray casting over all rings, so holes and multipolygon parts need no bookkeeping. */
export function shapeContains(shape: GeoShape, lng: number, lat: number): boolean {
  if (!bboxContains(shape.bbox, lng, lat)) return false
  let inside = false
  for (const ring of shape.rings) {
    const n = ring.length
    for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
      const yi = ring[i + 1]!, yj = ring[j + 1]!
      if (yi > lat !== yj > lat) {
        const xi = ring[i]!, xj = ring[j]!
        if (lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside
      }
    }
  }
  return inside
}

export type ShapeIndex = {
  /** every indexed shape containing the point, in input order */
  findAll(lng: number, lat: number): GeoShape[]
  /** the first indexed shape containing the point that passes `accept` */
  find(lng: number, lat: number, accept?: (shape: GeoShape) => boolean): GeoShape | undefined
}

const MAX_CELLS_PER_SHAPE = 4096

/**
 * Uniform grid over lng/lat: each cell lists the shapes whose bbox touches it. Shapes with huge
 * bboxes (the Aleutians span the antimeridian) are kept in a short list checked for every query.
 */
export function buildShapeIndex(shapes: GeoShape[], cellDegrees = 0.25): ShapeIndex {
  const columns = Math.ceil(720 / cellDegrees)
  const cellOf = (lng: number, lat: number) =>
    Math.floor((lat + 90) / cellDegrees) * columns + Math.floor((lng + 360) / cellDegrees)
  const cells = new Map<number, number[]>()
  const wide: number[] = []

  shapes.forEach((shape, index) => {
    const [minX, minY, maxX, maxY] = shape.bbox
    const x0 = Math.floor((minX + 360) / cellDegrees), x1 = Math.floor((maxX + 360) / cellDegrees)
    const y0 = Math.floor((minY + 90) / cellDegrees), y1 = Math.floor((maxY + 90) / cellDegrees)
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS_PER_SHAPE) {
      wide.push(index)
      return
    }
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const key = y * columns + x
        const list = cells.get(key)
        if (list) list.push(index)
        else cells.set(key, [index])
      }
    }
  })

  const candidates = (lng: number, lat: number): number[] => {
    const local = cells.get(cellOf(lng, lat)) ?? []
    return wide.length ? [...local, ...wide].sort((a, b) => a - b) : local
  }
  return {
    findAll: (lng, lat) => candidates(lng, lat).map((i) => shapes[i]!).filter((s) => shapeContains(s, lng, lat)),
    find: (lng, lat, accept) => {
      for (const i of candidates(lng, lat)) {
        const shape = shapes[i]!
        if ((!accept || accept(shape)) && shapeContains(shape, lng, lat)) return shape
      }
      return undefined
    },
  }
}

function ringArea(ring: Float64Array): number {
  let twiceArea = 0
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    twiceArea += ring[j]! * ring[i + 1]! - ring[i]! * ring[j + 1]!
  }
  return twiceArea / 2
}

function ringCentroid(ring: Float64Array): { lng: number; lat: number } {
  const area = ringArea(ring)
  let cx = 0, cy = 0
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const cross = ring[j]! * ring[i + 1]! - ring[i]! * ring[j + 1]!
    cx += (ring[j]! + ring[i]!) * cross
    cy += (ring[j + 1]! + ring[i + 1]!) * cross
  }
  if (area === 0) return { lng: ring[0]!, lat: ring[1]! }
  return { lng: cx / (6 * area), lat: cy / (6 * area) }
}

/** Midpoint of the widest inside stretch of the horizontal line at `lat`, or null if the line misses. */
function widestStretchMidpoint(shape: GeoShape, lat: number): { lng: number; lat: number } | null {
  const crossings: number[] = []
  for (const ring of shape.rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const yi = ring[i + 1]!, yj = ring[j + 1]!
      if (yi > lat !== yj > lat) crossings.push(((ring[j]! - ring[i]!) * (lat - yi)) / (yj - yi) + ring[i]!)
    }
  }
  crossings.sort((a, b) => a - b)
  let best: { lng: number; lat: number } | null = null
  let bestWidth = 0
  for (let k = 0; k + 1 < crossings.length; k += 2) {
    const width = crossings[k + 1]! - crossings[k]!
    if (width > bestWidth) {
      bestWidth = width
      best = { lng: (crossings[k]! + crossings[k + 1]!) / 2, lat }
    }
  }
  return best
}

/**
 * A point inside the shape: the area centroid of its largest ring when that lies inside (holes
 * and concave outlines can push it out), else the middle of the widest inside stretch along a
 * horizontal line through the largest ring.
 */
export function interiorPoint(shape: GeoShape): { lng: number; lat: number } | null {
  let largest: Float64Array | undefined
  let largestArea = 0
  for (const ring of shape.rings) {
    const area = Math.abs(ringArea(ring))
    if (area > largestArea) {
      largestArea = area
      largest = ring
    }
  }
  if (!largest) return null
  const centroid = ringCentroid(largest)
  if (shapeContains(shape, centroid.lng, centroid.lat)) return centroid

  const [, minY, , maxY] = bboxOfRings([largest])
  // Odd fractions avoid lines running exactly through vertices on quantized coordinates.
  const lines = [centroid.lat, ...[0.5, 0.4371, 0.5629, 0.3173, 0.6827, 0.2113, 0.7887].map((f) => minY + (maxY - minY) * f)]
  for (const lat of lines) {
    const point = widestStretchMidpoint(shape, lat)
    if (point && shapeContains(shape, point.lng, point.lat)) return point
  }
  return null
}
