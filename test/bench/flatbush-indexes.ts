// The three grid indexes' flatbush counterparts, for `make bench` to hold against them (spatial-bench.ts,
// docs/decisions.md "Spatial index"): a packed Hilbert R-tree (flatbush, node size 16) over the same
// boxes, the rest of each search exactly as the grid's, so both give the same answers and only the
// index differs. They live here, not in the product, because the grids answer faster.
import Flatbush from 'flatbush'
import { shapeContains, type ShapeIndex as GeographyShapeIndex } from '../../pipeline/geography/point-in-shape.ts'
import type { CandidateMatch, NearestZip } from '../../server/lookup/nearest-zip.ts'
import type { ZipPoint } from '../../server/lookup/snapshot-facts.ts'
import { ContainerReader } from '../../snapshot-contract/format.ts'
import { KM_PER_DEGREE } from '../../snapshot-contract/geo-distance.ts'
import type { GeoShape } from '../../snapshot-contract/geography-model.ts'
import { readShapeRings, ringsContain, ShapeIndex, toMicrodegrees, type ShapeHit, type ShapeRings } from '../../snapshot-contract/shape-index.ts'

/** Children per tree node (flatbush's default). */
export const TREE_NODE_SIZE = 16

type Box = ArrayLike<number>

/** The tree over `count` boxes (west, south, east, north), box i given by `boxOf(i)`; null for none (flatbush holds at least one). */
function boxTree(count: number, boxOf: (i: number) => Box): Flatbush | null {
  if (count === 0) return null
  const tree = new Flatbush(count, TREE_NODE_SIZE, Float64Array)
  for (let i = 0; i < count; i++) {
    const box = boxOf(i)
    tree.add(box[0], box[1], box[2], box[3])
  }
  tree.finish()
  return tree
}

/** Indices of the boxes holding the point, edges included, ascending (the order the grids list them in). */
const boxesAt = (tree: Flatbush | null, x: number, y: number): number[] => (tree ? tree.search(x, y, x, y).sort((a, b) => a - b) : [])

/** `ShapeIndex.at` of shapes.bin with the file's grid (g.*) replaced by a tree of its sh.bbox boxes. */
export class FlatbushShapesBin {
  readonly #shapes: ShapeIndex
  readonly #rings: ShapeRings
  readonly #tree: Flatbush | null

  constructor(bytes: Uint8Array) {
    this.#shapes = new ShapeIndex(bytes)
    const reader = new ContainerReader(bytes, 'shapes', 'shapes.bin')
    const bbox = reader.column('sh.bbox', 'f64')
    this.#rings = readShapeRings(reader)
    this.#tree = boxTree(this.#shapes.size, (i) => bbox.subarray(i * 4, i * 4 + 4))
  }

  at(lng: number, lat: number): ShapeHit[] {
    const hits: ShapeHit[] = []
    const x = toMicrodegrees(lng)
    const y = toMicrodegrees(lat)
    for (const s of boxesAt(this.#tree, lng, lat)) {
      if (ringsContain(this.#rings, s, x, y)) hits.push(this.#shapes.hit(s))
    }
    return hits
  }
}

/** The geography build's `buildShapeIndex` on a tree of the shapes' boxes. */
export function flatbushGeographyIndex(shapes: GeoShape[]): GeographyShapeIndex {
  const tree = boxTree(shapes.length, (i) => shapes[i]!.bbox)
  return {
    findAll: (lng, lat) => boxesAt(tree, lng, lat).map((i) => shapes[i]!).filter((s) => shapeContains(s, lng, lat)),
    find: (lng, lat, accept) => {
      for (const i of boxesAt(tree, lng, lat)) {
        const shape = shapes[i]!
        if ((!accept || accept(shape)) && shapeContains(shape, lng, lat)) return shape
      }
      return undefined
    },
  }
}

/** Distances are computed apart from the tree's own; every bound taken from one is widened by this much. */
const RELATIVE_SLACK = 1e-9
const EDGE_SLACK_DEGREES = 1e-9

const TREES = new WeakMap<readonly ZipPoint[], Flatbush>()

function centroidTree(points: readonly ZipPoint[]): Flatbush {
  let tree = TREES.get(points)
  if (!tree) {
    tree = boxTree(points.length, (i) => [points[i].lng, points[i].lat, points[i].lng, points[i].lat])!
    TREES.set(points, tree)
  }
  return tree
}

/**
 * `nearestZip` on a tree of the centroids (built on first use per list, as the grid is). Distance
 * shrinks longitude by cos(lat), the tree measures plain degrees: a point within d here is within
 * d / cos(lat) in the tree and lies in the box of half-height d and half-width d / cos(lat). The
 * tree's nearest accepted point (`neighbors`) gives d, a box search then finds the nearest with
 * the grid's comparison and tie rule (the earlier point).
 */
export function flatbushNearestZip(points: readonly ZipPoint[], lat: number, lng: number, match: CandidateMatch, maxKm = Infinity): NearestZip | null {
  if (points.length === 0) return null
  const tree = centroidTree(points)
  const cosLat = Math.cos((lat * Math.PI) / 180)
  const limit = (maxKm / KM_PER_DEGREE) ** 2
  const squared = (point: ZipPoint) => (point.lat - lat) ** 2 + ((point.lng - lng) * cosLat) ** 2
  const widen = (degrees: number) => degrees * (1 + RELATIVE_SLACK) + EDGE_SLACK_DEGREES

  const [near] = tree.neighbors(lng, lat, 1, widen(Math.sqrt(limit) / cosLat), (i) => points[i].candidates.some(match))
  if (near === undefined) return null
  const reach = widen(Math.sqrt(Math.min(squared(points[near]), limit)))

  let best = -1
  let bestCandidate = -1
  let bestDistance = Infinity
  tree.search(lng - reach / cosLat, lat - reach, lng + reach / cosLat, lat + reach, (i) => {
    const distance = squared(points[i])
    if (distance > limit || distance > bestDistance || (distance === bestDistance && i > best)) return false
    const candidate = points[i].candidates.findIndex(match)
    if (candidate >= 0) {
      best = i
      bestCandidate = candidate
      bestDistance = distance
    }
    return false
  })
  if (best < 0) return null
  return { point: points[best], index: bestCandidate, distanceKm: Math.sqrt(bestDistance) * KM_PER_DEGREE }
}
