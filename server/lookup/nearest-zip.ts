// Nearest ZIP centroid to a point, among ZIPs holding a candidate a predicate accepts.
// An R-tree over a list of centroids is built on first use and kept in a WeakMap keyed by the list
// (a state's list is held by the snapshot's facts, so it goes away with the snapshot). The search
// answers exactly what a scan of the whole list would, ties going to the earlier point.
import type Flatbush from 'flatbush'
import { buildBoxTree } from '../../snapshot-contract/box-tree.ts'
import { KM_PER_DEGREE } from '../../snapshot-contract/geo-distance.ts'
import type { ZipPoint } from './snapshot-facts.ts'

export type CandidateMatch = (candidate: ZipPoint['candidates'][number]) => boolean

export type NearestZip = { point: ZipPoint; index: number; distanceKm: number }

/** Distances are computed apart from the tree's own; widen every bound taken from one by this much. */
const RELATIVE_SLACK = 1e-9
const EDGE_SLACK_DEGREES = 1e-9

const TREES = new WeakMap<readonly ZipPoint[], Flatbush>()

function treeOf(points: readonly ZipPoint[]): Flatbush {
  let tree = TREES.get(points)
  if (!tree) {
    tree = buildBoxTree(points.length, (i) => [points[i].lng, points[i].lat, points[i].lng, points[i].lat])!
    TREES.set(points, tree)
  }
  return tree
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

/**
 * The nearest point holding a candidate that `match` accepts, no farther than `maxKm`; null if none.
 *
 * Distance shrinks longitude by cos(lat), the tree measures plain degrees. A point within d here is
 * within d / cos(lat) in the tree, and lies in the box of half-height d and half-width d / cos(lat):
 * the tree's nearest accepted point (its `neighbors`) gives d, the box search then finds the nearest.
 */
export function nearestZip(points: readonly ZipPoint[], lat: number, lng: number, match: CandidateMatch, maxKm = Infinity): NearestZip | null {
  if (points.length === 0) return null
  const tree = treeOf(points)
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
