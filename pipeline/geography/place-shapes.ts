// Census cartographic boundary shapefiles (zipped): place polygons per state, and the state table.
import { createRequire } from 'node:module'
import type { GeoShape } from '../../snapshot-contract/geography-model.ts'
import { bboxOfRings } from './point-in-shape.ts'
import { readMembers } from '../fetch/archive.ts'

type Position = number[]
type ShapeGeometry = { type: 'Polygon'; coordinates: Position[][] } | { type: 'MultiPolygon'; coordinates: Position[][][] }
type ShapeRecord = { properties: Record<string, string | number>; geometry: ShapeGeometry | null }
type RecordSource<T> = { read(): Promise<{ done: boolean; value: T }> }
type ShapefileModule = {
  open(shp: Uint8Array, dbf: Uint8Array, options?: { encoding?: string }): Promise<RecordSource<ShapeRecord>>
  openDbf(dbf: Uint8Array, options?: { encoding?: string }): Promise<RecordSource<Record<string, string | number>>>
}
// The package ships no type declarations; the shape above covers the calls made here.
const shapefile = createRequire(import.meta.url)('shapefile') as ShapefileModule

/** Census LSAD codes of CDP-type places: 57 CDP, 55 comunidad and 62 zona urbana (Puerto Rico). */
const CDP_LSADS = new Set(['57', '55', '62'])

export type PlaceShape = {
  shape: GeoShape
  name: string
  lsad: string
  incorporated: boolean
  /** ALAND: land area in m² */
  land: number
}

type ZippedShapefile = { shp?: Uint8Array; dbf: Uint8Array; encoding: string }

function unzipShapefile(zipBytes: Uint8Array, withGeometry: boolean): ZippedShapefile {
  const wanted = withGeometry ? /\.(shp|dbf|cpg)$/i : /\.(dbf|cpg)$/i
  const files = readMembers(zipBytes, 'shapefile zip', (name) => wanted.test(name))
  const byExtension = (ext: string) => Object.entries(files).find(([name]) => name.toLowerCase().endsWith(ext))?.[1]
  const dbf = byExtension('.dbf')
  if (!dbf) throw new Error('shapefile zip has no .dbf')
  const cpg = byExtension('.cpg')
  const encoding = cpg ? new TextDecoder().decode(cpg).trim() || 'windows-1252' : 'windows-1252'
  return { shp: byExtension('.shp'), dbf, encoding }
}

export function geometryRings(geometry: ShapeGeometry | null): Float64Array[] {
  if (!geometry) return []
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
  const rings: Float64Array[] = []
  for (const polygon of polygons) {
    for (const ring of polygon) {
      const flat = new Float64Array(ring.length * 2)
      ring.forEach((p, i) => {
        flat[i * 2] = p[0]!
        flat[i * 2 + 1] = p[1]!
      })
      rings.push(flat)
    }
  }
  return rings
}

/** The attributes each table's reader needs (Census cartographic boundary files). */
const PLACE_PROPERTIES = ['GEOID', 'NAME', 'LSAD', 'ALAND']
const STATE_PROPERTIES = ['STATEFP', 'STUSPS']

/**
 * The records of a shapefile zip (attributes only, geometry null, when `withGeometry` is false);
 * throws when the zip holds no readable shapefile, the first record lacks a `required` attribute, or
 * there is no record.
 */
async function* shapeRecords(zipBytes: Uint8Array, what: string, required: readonly string[], withGeometry: boolean): AsyncGenerator<ShapeRecord> {
  const { shp, dbf, encoding } = unzipShapefile(zipBytes, withGeometry)
  if (withGeometry && !shp) throw new Error(`${what} zip has no .shp`)
  const source: RecordSource<ShapeRecord> = shp
    ? await shapefile.open(shp, dbf, { encoding })
    : await shapefile.openDbf(dbf, { encoding }).then((attributes) => ({
        read: async () => {
          const { done, value } = await attributes.read()
          return { done, value: { properties: value, geometry: null } }
        },
      }))
  for (let count = 0; ; count++) {
    const { done, value } = await source.read()
    if (done) {
      if (count === 0) throw new Error(`${what} shapefile has no records`)
      return
    }
    if (count === 0) {
      const missing = required.filter((name) => !(name in value.properties))
      if (missing.length) throw new Error(`${what} shapefile lacks the attribute(s) ${missing.join(', ')} (has: ${Object.keys(value.properties).join(', ').slice(0, 200)})`)
    }
    yield value
  }
}

/**
 * Throws what the reader of a `cb_YYYY_us_state_500k.zip` (`kind` 'state') or `cb_YYYY_SS_place_500k.zip`
 * ('place') would on its structure (not a shapefile zip, a member or an attribute missing, no
 * record), reading the first record only: a download is checked with it before it is kept in use.
 */
export async function assertShapefileShape(zipBytes: Uint8Array, kind: 'state' | 'place'): Promise<void> {
  const records = kind === 'place' ? shapeRecords(zipBytes, 'place', PLACE_PROPERTIES, true) : shapeRecords(zipBytes, 'state', STATE_PROPERTIES, false)
  await records.next()
  await records.return(undefined)
}

/** Every place polygon in one `cb_YYYY_SS_place_500k.zip`; `state` is the USPS code of the file's state. */
export async function readPlaceShapes(zipBytes: Uint8Array, state: string): Promise<PlaceShape[]> {
  const places: PlaceShape[] = []
  for await (const value of shapeRecords(zipBytes, 'place', PLACE_PROPERTIES, true)) {
    const rings = geometryRings(value.geometry)
    if (!rings.length) continue
    const lsad = String(value.properties.LSAD)
    places.push({
      shape: { id: String(value.properties.GEOID), state, bbox: bboxOfRings(rings), rings },
      name: String(value.properties.NAME),
      lsad,
      incorporated: !CDP_LSADS.has(lsad),
      land: Number(value.properties.ALAND),
    })
  }
  return places
}

/** State FIPS → USPS code from the attribute table of `cb_YYYY_us_state_500k.zip`. */
export async function readStateCodes(zipBytes: Uint8Array): Promise<Map<string, string>> {
  const codes = new Map<string, string>()
  for await (const { properties } of shapeRecords(zipBytes, 'state', STATE_PROPERTIES, false)) codes.set(String(properties.STATEFP), String(properties.STUSPS))
  return codes
}
