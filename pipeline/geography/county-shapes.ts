// County polygons from the us-atlas TopoJSON (Census 2017 1:5M, quantized and simplified): coarse,
// so only a fallback for lat/lng lookups (geography.md §7).
import { createRequire } from 'node:module'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import type { GeoShape } from '../../snapshot-contract/geography-model.ts'
import { geometryRings } from './place-shapes.ts'
import { bboxOfRings } from './point-in-shape.ts'

export const US_ATLAS_COUNTIES_FILE = createRequire(import.meta.url).resolve('us-atlas/counties-10m.json')

/**
 * County codes of newer vintages (HUD 2023, Geocorr 2022) → the us-atlas 2017 county that holds
 * them. Valdez-Cordova (02261) was split into Chugach (02063) and Copper River (02066) in 2019.
 */
export const ATLAS_COUNTY_FOR: Record<string, string> = { '02063': '02261', '02066': '02261' }

export type CountyShapes = {
  shapes: GeoShape[]
  /** 5-digit FIPS → us-atlas county name */
  names: Map<string, string>
}

export function readCountyShapes(topologyJson: string, stateCodes: Map<string, string>): CountyShapes {
  const topology = JSON.parse(topologyJson) as Topology<{ counties: GeometryCollection<{ name: string }> }>
  const collection = feature(topology, topology.objects.counties)
  const shapes: GeoShape[] = []
  const names = new Map<string, string>()
  for (const f of collection.features) {
    const id = String(f.id)
    names.set(id, f.properties.name)
    const geometry = f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon' ? f.geometry : null
    const rings = geometryRings(geometry)
    if (!rings.length) continue
    const state = stateCodes.get(id.slice(0, 2))
    if (!state) throw new Error(`us-atlas county ${id}: unknown state FIPS`)
    shapes.push({ id, state, bbox: bboxOfRings(rings), rings })
  }
  return { shapes, names }
}
