// Spatial index figures for `make bench`: each of the three grid indexes against its flatbush
// counterpart (flatbush-indexes.ts) on the bench's own snapshot, the question docs/decisions.md
// "Spatial index" answers. The geography build's shapes are read back from the snapshot's shapes.bin
// (the same county and place outlines the build indexed), the queries are ZIP centroids of every
// state with a point near each. Before any timing both sides answer every query, and a line whose
// answers differ shows that instead of a figure. Then both run the same queries in TURNS turns,
// taken in alternation (grid, tree, tree, grid, …), each side's median turn giving its µs per call.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { bboxOfRings, buildShapeIndex, type ShapeIndex as GeographyShapeIndex } from '../../pipeline/geography/point-in-shape.ts'
import { nearestZip, type NearestZip } from '../../server/lookup/nearest-zip.ts'
import { SnapshotFacts, type ZipPoint } from '../../server/lookup/snapshot-facts.ts'
import { openSnapshot } from '../../server/snapshot/open-snapshot.ts'
import { ContainerReader } from '../../snapshot-contract/format.ts'
import type { GeoShape } from '../../snapshot-contract/geography-model.ts'
import { readShapeRings, type ShapeIndex } from '../../snapshot-contract/shape-index.ts'
import { readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import { FlatbushShapesBin, flatbushGeographyIndex, flatbushNearestZip, TREE_NODE_SIZE } from './flatbush-indexes.ts'

export const TURNS = 11
/** ZIP centroids taken (spread evenly over all states), each with one point up to JITTER_DEGREES off it */
const CENTROIDS = 8_000
const NEAREST_CENTROIDS = 2_500
const JITTER_DEGREES = 0.25
const SHORE_REACH_KM = 25

export type SpatialComparison = {
  query: string
  calls: number
  gridMicros: number
  flatbushMicros: number
  /** the first query the two answered differently, and how many did; null when all agree */
  mismatch: string | null
}

export const SPATIAL_CONDITIONS =
  `spatial index lines: each grid against a flatbush tree (node size ${TREE_NODE_SIZE}) of the same boxes, on the snapshot's shapes and ZIP centroids, ` +
  `answers checked identical on every query first, then ${TURNS} turns a side in alternation; µs per call in each side's median turn`

type Query = { lng: number; lat: number; state: string }

export async function spatialComparisons(artifacts: string): Promise<SpatialComparison[]> {
  const id = (await readCurrentId(artifacts))!
  const snapshot = await openSnapshot(artifacts, id, Date.now())
  const facts = new SnapshotFacts(snapshot)
  const pointsOf = new Map(snapshot.rates.states.map((state) => [state, facts.zipPoints(state)]))
  const queries = nearCentroids(pointsOf, CENTROIDS)
  const bytes = snapshot.files['shapes.bin']
  const layers = geographyShapes(bytes, snapshot.shapes)
  const tree = new FlatbushShapesBin(bytes)
  const inState = (q: Query) => (shape: GeoShape) => shape.state === q.state
  const pipelineLine = (query: string, shapes: GeoShape[]) => {
    const grid = buildShapeIndex(shapes)
    const flat = flatbushGeographyIndex(shapes)
    const find = (index: GeographyShapeIndex) => (q: Query) => index.find(q.lng, q.lat, inState(q))?.id ?? null
    return compare(query, queries, find(grid), find(flat))
  }
  const nearestQueries = nearCentroids(pointsOf, NEAREST_CENTROIDS)
  const nearestLine = (query: string, maxKm: number) => {
    const search = (nearest: typeof nearestZip) => (q: Query) => nearestAnswer(nearest(pointsOf.get(q.state)!, q.lat, q.lng, () => true, maxKm))
    return compare(query, nearestQueries, search(nearestZip), search(flatbushNearestZip))
  }
  return [
    compare('shapes.bin ShapeIndex.at (coordinate lookups)', queries, (q) => snapshot.shapes.at(q.lng, q.lat), (q) => tree.at(q.lng, q.lat)),
    pipelineLine("geography build's county search (state filter)", layers.county),
    pipelineLine("geography build's place search (state filter)", layers.place),
    nearestLine('nearest ZIP over a whole state, no limit', Infinity),
    nearestLine(`nearest ZIP over a whole state, within ${SHORE_REACH_KM} km`, SHORE_REACH_KM),
  ]
}

const nearestAnswer = (found: NearestZip | null) => found && { entry: found.point.entry, candidate: found.index, km: found.distanceKm }

/** The county and place outlines shapes.bin was written from, as the geography build holds them (degrees). */
function geographyShapes(bytes: Uint8Array, shapes: ShapeIndex): { county: GeoShape[]; place: GeoShape[] } {
  const { r0, rn, p0, pn, pt } = readShapeRings(new ContainerReader(bytes, 'shapes', 'shapes.bin'))
  const layers: { county: GeoShape[]; place: GeoShape[] } = { county: [], place: [] }
  for (let s = 0; s < shapes.size; s++) {
    const rings: Float64Array[] = []
    for (let r = r0[s]; r < r0[s] + rn[s]; r++) rings.push(Float64Array.from(pt.subarray(p0[r] * 2, (p0[r] + pn[r]) * 2), (v) => v / 1e6))
    const { id, kind, state } = shapes.hit(s)
    layers[kind].push({ id, state, rings, bbox: bboxOfRings(rings) })
  }
  return layers
}

/** `count` centroids spread evenly over every state's list, each followed by a point near it (a fixed pseudo-random offset). */
function nearCentroids(pointsOf: Map<string, readonly ZipPoint[]>, count: number): Query[] {
  const all = [...pointsOf].flatMap(([state, points]) => points.map(({ lng, lat }) => ({ lng, lat, state })))
  const step = Math.max(1, all.length / count)
  let seed = 20_251_128
  const offset = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    return (seed / 2 ** 31 - 0.5) * 2 * JITTER_DEGREES
  }
  const queries: Query[] = []
  for (let k = 0; k < all.length; k += step) {
    const centroid = all[Math.floor(k)]
    queries.push(centroid, { ...centroid, lng: centroid.lng + offset(), lat: centroid.lat + offset() })
  }
  return queries
}

function compare<A>(query: string, queries: Query[], grid: (q: Query) => A, flatbush: (q: Query) => A): SpatialComparison {
  let differing = 0
  let first = ''
  for (const q of queries) {
    const [a, b] = [JSON.stringify(grid(q)), JSON.stringify(flatbush(q))]
    if (a === b) continue
    if (differing++ === 0) first = `at ${q.lat.toFixed(6)}, ${q.lng.toFixed(6)} (${q.state}) the grid answers ${a}, flatbush ${b}`
  }
  const line = { query, calls: queries.length }
  if (differing > 0) return { ...line, gridMicros: NaN, flatbushMicros: NaN, mismatch: `${differing} of ${queries.length} answers differ; first ${first}` }
  const [gridMs, flatbushMs] = alternating(
    () => queries.forEach(grid),
    () => queries.forEach(flatbush),
  )
  return { ...line, gridMicros: (gridMs * 1000) / queries.length, flatbushMicros: (flatbushMs * 1000) / queries.length, mismatch: null }
}

/** Each side's median turn in ms, the sides taking TURNS turns each in ABBA order after one untimed run each. */
function alternating(a: () => void, b: () => void): [number, number] {
  a()
  b()
  const times: [number[], number[]] = [[], []]
  const timed = (side: 0 | 1) => {
    const started = performance.now()
    ;(side === 0 ? a : b)()
    times[side].push(performance.now() - started)
  }
  for (let turn = 0; turn < TURNS; turn++) {
    const first = turn % 2 === 0 ? 0 : 1
    timed(first)
    timed(first === 0 ? 1 : 0)
  }
  const median = (values: number[]) => values.sort((x, y) => x - y)[values.length >> 1]
  return [median(times[0]), median(times[1])]
}

/** The line's value in the table: flatbush's µs per call over the grid's, with both; or how the answers differ. */
export const spatialFigures = (line: SpatialComparison) =>
  line.mismatch ?? `${(line.flatbushMicros / line.gridMicros).toFixed(2)} (flatbush ${line.flatbushMicros.toFixed(1)} µs, grid ${line.gridMicros.toFixed(1)} µs)`

/** `npx tsx test/bench/spatial-bench.ts <artifacts directory>`: these lines alone, on a published snapshot. */
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const artifacts = process.argv[2]
  if (!artifacts) throw new Error('usage: tsx test/bench/spatial-bench.ts <artifacts directory>')
  for (const line of await spatialComparisons(path.resolve(artifacts))) {
    process.stdout.write(`${line.query}: flatbush / grid ${spatialFigures(line)}, ${line.calls} calls a turn\n`)
  }
  process.stdout.write(`${SPATIAL_CONDITIONS}\n`)
}
