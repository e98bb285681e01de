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

/** Every place polygon in one `cb_YYYY_SS_place_500k.zip`; `state` is the USPS code of the file's state. */
export async function readPlaceShapes(zipBytes: Uint8Array, state: string): Promise<PlaceShape[]> {
  const { shp, dbf, encoding } = unzipShapefile(zipBytes, true)
  if (!shp) throw new Error('place shapefile zip has no .shp')
  const source = await shapefile.open(shp, dbf, { encoding })
  const places: PlaceShape[] = []
  for (;;) {
    const { done, value } = await source.read()
    if (done) break
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
  const { dbf, encoding } = unzipShapefile(zipBytes, false)
  const source = await shapefile.openDbf(dbf, { encoding })
  const codes = new Map<string, string>()
  for (;;) {
    const { done, value } = await source.read()
    if (done) break
    codes.set(String(value.STATEFP), String(value.STUSPS))
  }
  return codes
}
