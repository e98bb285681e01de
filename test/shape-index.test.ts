// shapes.bin round trip on the real geography of a few states: the grid-indexed `at` answers
// exactly what a scan over every shape does (ZIP centroids, random points, points inside every
// shape, points on cell and bbox edges), the writer is deterministic, old versions are refused.
import { beforeAll, describe, expect, it } from 'vitest'
import { FORMAT_VERSION } from '../snapshot-contract/format.ts'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import type { GeoShape, Geography } from '../snapshot-contract/geography-model.ts'
import { bboxOfRings, interiorPoint } from '../pipeline/geography/point-in-shape.ts'
import { ShapeIndex, writeShapeIndex, type ShapeHit } from '../snapshot-contract/shape-index.ts'
import { sharedPath } from './support/shared.ts'

// AK: Aleutians West crosses 180° (a bbox no grid cell list holds); the others have long shores.
const STATES = ['AK', 'CA', 'IL', 'NY', 'TX', 'WA']

type Point = { lng: number; lat: number }

/** The documented shape order (counties, then places, each by id) with a plain scan in microdegrees. */
function bruteForce(layers: { county: GeoShape[]; place: GeoShape[] }): (point: Point) => ShapeHit[] {
  const byId = (a: GeoShape, b: GeoShape) => a.id.localeCompare(b.id)
  const shapes = [
    ...[...layers.county].sort(byId).map((shape) => ({ shape, kind: 'county' as const })),
    ...[...layers.place].sort(byId).map((shape) => ({ shape, kind: 'place' as const })),
  ]
  const micro = (value: number) => Math.round(value * 1e6)
  const contains = (shape: GeoShape, x: number, y: number) => {
    let inside = false
    for (const ring of shape.rings) {
      for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
        const xi = micro(ring[i]!), yi = micro(ring[i + 1]!), xj = micro(ring[j]!), yj = micro(ring[j + 1]!)
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
      }
    }
    return inside
  }
  return ({ lng, lat }) =>
    shapes
      .filter(({ shape: { bbox } }) => lng >= bbox[0] && lng <= bbox[2] && lat >= bbox[1] && lat <= bbox[3])
      .filter(({ shape }) => contains(shape, micro(lng), micro(lat)))
      .map(({ shape, kind }) => ({ id: shape.id, kind, state: shape.state }))
}

/** Seeded PRNG (mulberry32), so a failure names a point that reproduces. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const copy = (bytes: Uint8Array) => new Uint8Array(bytes)

let geo: Geography
let bytes: Buffer
let index: ShapeIndex
let scan: (point: Point) => ShapeHit[]

beforeAll(async () => {
  geo = await buildGeography(sharedPath('geo'), { states: STATES })
  bytes = writeShapeIndex({ county: geo.countyShapes, place: geo.placeShapes })
  index = new ShapeIndex(copy(bytes))
  scan = bruteForce({ county: geo.countyShapes, place: geo.placeShapes })
})

function expectSameHits(points: Point[], label: string): number {
  let hits = 0
  for (const point of points) {
    const expected = scan(point)
    expect(index.at(point.lng, point.lat), `${label} (${point.lat}, ${point.lng})`).toEqual(expected)
    hits += expected.length
  }
  return hits
}

describe('shapes.bin grid index', () => {
  it('holds every county and place shape', () => {
    expect(index.size).toBe(geo.countyShapes.length + geo.placeShapes.length)
  })

  it('answers exactly the scan at every ZIP centroid of the states', () => {
    const centroids = [...geo.zips.values()].flatMap((zip) => (zip.lat === null || zip.lng === null ? [] : [{ lng: zip.lng, lat: zip.lat }]))
    expect(centroids.length).toBeGreaterThan(9000)
    const hits = expectSameHits(centroids, 'ZIP centroid')
    expect(hits).toBeGreaterThan(centroids.length)
  })

  it('answers exactly the scan at random points in each state\'s bbox', () => {
    const next = random(20261121)
    let hits = 0
    for (const state of STATES) {
      const shapes = geo.countyShapes.filter((shape) => shape.state === state && shape.bbox[2] - shape.bbox[0] < 90)
      const west = Math.min(...shapes.map((s) => s.bbox[0])), east = Math.max(...shapes.map((s) => s.bbox[2]))
      const south = Math.min(...shapes.map((s) => s.bbox[1])), north = Math.max(...shapes.map((s) => s.bbox[3]))
      const points = Array.from({ length: 800 }, () => ({ lng: west + (east - west) * next(), lat: south + (north - south) * next() }))
      hits += expectSameHits(points, `random ${state}`)
    }
    expect(hits).toBeGreaterThan(STATES.length * 400)
  })

  it('finds every shape at a point inside it, the Aleutians across 180° included', () => {
    const shapes = [...geo.countyShapes, ...geo.placeShapes]
    let found = 0
    for (const shape of shapes) {
      const inside = interiorPoint(shape)
      if (!inside) continue
      const hits = index.at(inside.lng, inside.lat)
      expect(hits, shape.id).toEqual(scan(inside))
      if (hits.some((hit) => hit.id === shape.id)) found++
    }
    expect(found / shapes.length).toBeGreaterThan(0.99)
    const aleutians = geo.countyShapes.find((shape) => shape.id === '02016')!
    expect(aleutians.bbox[2] - aleutians.bbox[0]).toBeGreaterThan(180)
    // Its islands lie on both sides of 180°: a point inside one island of each side finds it.
    const islandPoint = (ring: Float64Array) => interiorPoint({ ...aleutians, rings: [ring], bbox: bboxOfRings([ring]) })
    for (const east of [true, false]) {
      const inside = aleutians.rings.filter((ring) => ring[0]! > 0 === east).map(islandPoint).find((point) => point !== null)!
      expect(index.at(inside.lng, inside.lat).map((hit) => hit.id)).toContain('02016')
    }
  })

  it('answers exactly the scan on grid cell edges and shape bbox edges', () => {
    const edges: Point[] = []
    for (const zip of geo.zips.values()) {
      if (zip.lat === null || zip.lng === null) continue
      edges.push({ lng: Math.round(zip.lng * 4) / 4, lat: zip.lat }, { lng: zip.lng, lat: Math.round(zip.lat * 4) / 4 })
    }
    for (const { bbox } of geo.placeShapes) {
      edges.push({ lng: bbox[0], lat: (bbox[1] + bbox[3]) / 2 }, { lng: bbox[2], lat: bbox[3] }, { lng: (bbox[0] + bbox[2]) / 2, lat: bbox[1] })
    }
    expectSameHits(edges, 'edge')
  })
})

describe('shapes.bin grid index on shapes aligned to its 0.25° cells', () => {
  const polygon = (id: string, ...xy: number[]): GeoShape => {
    const ring = Float64Array.from(xy)
    return { id, state: 'TX', rings: [ring], bbox: bboxOfRings([ring]) }
  }
  const layers = {
    county: [polygon('48001', -90, 30, -89.75, 30, -89.75, 30.25, -90, 30.25), polygon('48003', -89.75, 30, -89.5, 30, -89.5, 30.25, -89.75, 30.25)],
    place: [polygon('4800001', -90, 30.125, -89.75, 29.75, -89.5, 30.125, -89.75, 30.5)],
  }

  it('answers exactly the scan on every cell edge and corner, where bbox and cell edges meet', () => {
    const aligned = new ShapeIndex(copy(writeShapeIndex(layers)))
    const alignedScan = bruteForce(layers)
    let hits = 0
    for (let lng = -90.25; lng <= -89.25; lng += 0.0625) {
      for (let lat = 29.5; lat <= 30.75; lat += 0.0625) {
        const expected = alignedScan({ lng, lat })
        expect(aligned.at(lng, lat), `(${lat}, ${lng})`).toEqual(expected)
        hits += expected.length
      }
    }
    expect(hits).toBeGreaterThan(50)
  })
})

describe('shapes.bin bytes', () => {
  it('are the same for the same shapes, whatever their input order', () => {
    const reversed = writeShapeIndex({ county: [...geo.countyShapes].reverse(), place: [...geo.placeShapes].reverse() })
    expect(Buffer.compare(reversed, bytes)).toBe(0)
  })

  it(`carry format version ${FORMAT_VERSION}; a file of an earlier version is refused with its version named`, () => {
    expect(bytes[8]).toBe(FORMAT_VERSION)
    const old = copy(bytes)
    old[8] = FORMAT_VERSION - 1
    expect(() => new ShapeIndex(old, 'old/shapes.bin')).toThrow(
      `old/shapes.bin: format version ${FORMAT_VERSION - 1}; this build reads version ${FORMAT_VERSION}`,
    )
  })
})
