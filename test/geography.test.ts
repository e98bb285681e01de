import { readdirSync, readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import { newestHudCrosswalkName } from '../pipeline/geography/hud-crosswalk.ts'
import type { GeoPlace, Geography } from '../snapshot-contract/geography-model.ts'
import { normalizePlaceName, placeMatchKey, placeMatchKeys, stripLegalSuffix } from '../snapshot-contract/place-names.ts'
import { buildShapeIndex, shapeContains } from '../pipeline/geography/point-in-shape.ts'
import { sharedPath } from './support/shared.ts'

const GEO_DIR = sharedPath('geo')
const SUBSET = ['MA', 'KY', 'TN', 'IA', 'GA', 'IL', 'WA', 'KS', 'MO', 'MN', 'MS']

/** Independent reading of the HUD CSV: ZIP → raw rows. */
function rawHudRows(): Map<string, { county: string; state: string; tot: number }[]> {
  const dir = sharedPath('geo', 'hud')
  const name = newestHudCrosswalkName(readdirSync(dir))!
  const lines = readFileSync(`${dir}/${name}`, 'utf8').trim().split(/\r?\n/).slice(1)
  const rows = new Map<string, { county: string; state: string; tot: number }[]>()
  for (const line of lines) {
    const [zip, county, , state, , , , tot] = line.split(',')
    rows.set(zip!, [...(rows.get(zip!) ?? []), { county: county!, state: state!, tot: Number(tot) }])
  }
  return rows
}

describe('place names', () => {
  it('strips Census legal suffixes but keeps names that merely end in City', () => {
    expect(stripLegalSuffix('Springfield city')).toBe('Springfield')
    expect(stripLegalSuffix('Indianapolis city (balance)')).toBe('Indianapolis')
    expect(stripLegalSuffix('Juneau city and borough')).toBe('Juneau')
    expect(stripLegalSuffix('Urban Honolulu CDP')).toBe('Urban Honolulu')
    expect(stripLegalSuffix('Kearns metro township')).toBe('Kearns')
    expect(stripLegalSuffix('Carson City')).toBe('Carson City')
  })

  it('normalises USPS and Census spellings to one key', () => {
    expect(normalizePlaceName('St. Paul')).toBe('SAINT PAUL')
    expect(placeMatchKey('SAINT PAUL')).toBe(placeMatchKey('St. Paul'))
    expect(placeMatchKey('FT WORTH')).toBe(placeMatchKey('Fort Worth'))
    expect(placeMatchKey('MT VERNON')).toBe(placeMatchKey('Mount Vernon'))
    expect(placeMatchKey('CANON CITY')).toBe(placeMatchKey('Cañon City'))
    expect(placeMatchKey('WINSTON SALEM')).toBe(placeMatchKey('Winston-Salem'))
  })

  it('a Census name with the name in common use in parentheses answers to both', () => {
    // Geocorr 2022 "San Buenaventura (Ventura) city, CA" and "El Paso de Robles (Paso Robles) city, CA"
    expect(placeMatchKeys('San Buenaventura (Ventura) city')).toEqual(expect.arrayContaining([placeMatchKey('San Buenaventura'), placeMatchKey('VENTURA')]))
    expect(placeMatchKeys('El Paso de Robles (Paso Robles) city')).toContain(placeMatchKey('PASO ROBLES'))
    expect(placeMatchKeys('Indianapolis city (balance)')).toEqual([placeMatchKey('Indianapolis'), placeMatchKey('Indianapolis city')])
  })

  it('USPS\'s and CDTFA\'s "CITY OF INDUSTRY" meets the Census "Industry city"; "Angels city" answers to Angels Camp', () => {
    expect(placeMatchKey('CITY OF INDUSTRY')).toBe(placeMatchKeys('Industry city')[0])
    expect(placeMatchKeys('Angels city')).toContain(placeMatchKey('ANGELS CAMP'))
    expect(placeMatchKeys('New York city')).toEqual([placeMatchKey('New York'), placeMatchKey('NEW YORK CITY')])
  })
})

describe('buildGeography (state subset)', () => {
  let geo: Geography
  let hud: ReturnType<typeof rawHudRows>
  beforeAll(async () => {
    geo = await buildGeography(GEO_DIR, { states: SUBSET })
    hud = rawHudRows()
  })

  it('limits ZIPs to the requested states and keeps every HUD ZIP of them', () => {
    const expected = [...hud.entries()].filter(([, rows]) => SUBSET.includes(rows[0]!.state)).map(([zip]) => zip)
    expect(geo.zips.size).toBe(expected.length)
    for (const zip of geo.zips.values()) expect(SUBSET).toContain(zip.state)
  })

  it('includes PO-box ZIP 01101 Springfield MA, which is not a ZCTA (P28)', () => {
    const zip = geo.zips.get('01101')!
    expect(zip).toBeDefined()
    expect(zip.state).toBe('MA')
    expect(zip.city).toBe('SPRINGFIELD')
    expect(zip.zcta).toBe(false)
    expect(zip.counties.map((c) => c.fips)).toEqual(hud.get('01101')!.map((r) => r.county))
    expect(geo.counties.get(zip.counties[0]!.fips)?.state).toBe('MA')
    expect(zip.centroidSource).toBe('county')
    expect(zip.lat).not.toBeNull()
  })

  it('flags 42223 Fort Campbell as a KY/TN straddler, TN first by address weight', () => {
    const straddler = geo.straddlers.find((s) => s.zip === '42223')!
    expect(straddler.uspsState).toBe('KY')
    expect(straddler.states).toEqual(['TN', 'KY'])
    expect(geo.zips.get('42223')!.states).toEqual(['TN', 'KY'])
    expect(geo.counties.get('47125')?.state).toBe('TN')
  })

  it('keeps HUD county weights for multi-county ZIPs, largest first', () => {
    for (const code of ['50265', '30075']) {
      const zip = geo.zips.get(code)!
      const raw = hud.get(code)!.filter((r) => r.county !== '99999')
      expect(zip.counties.length).toBeGreaterThanOrEqual(2)
      expect(zip.counties.length).toBe(raw.length)
      expect(zip.counties.reduce((sum, c) => sum + c.weight, 0)).toBeCloseTo(1, 3)
      const weights = zip.counties.map((c) => c.weight)
      expect(weights).toEqual([...weights].sort((a, b) => b - a))
      for (const c of zip.counties) expect(c.weight).toBe(raw.find((r) => r.county === c.fips)!.tot)
    }
  })

  it('names counties without the state suffix', () => {
    expect(geo.counties.get('17167')).toEqual({ fips: '17167', state: 'IL', name: 'Sangamon' })
  })

  it('has Springfield IL as an incorporated place whose point lies inside its own polygon', () => {
    const place = geo.places.get('1772000')!
    expect(place).toMatchObject({ state: 'IL', name: 'Springfield', fullName: 'Springfield city', kind: 'incorporated' })
    expect(place.population).toBeGreaterThan(100_000)
    const shape = geo.placeShapes.find((s) => s.id === '1772000')!
    expect(shapeContains(shape, place.lng!, place.lat!)).toBe(true)
  })

  it('finds the place and a county holding each test point', () => {
    const places = buildShapeIndex(geo.placeShapes)
    const counties = buildShapeIndex(geo.countyShapes)
    const points: [number, number, string][] = [
      [47.6062, -122.3321, '5363000'],
      [39.7817, -89.6501, '1772000'],
      [39.1141, -94.6275, '2036000'],
    ]
    for (const [lat, lng, geoid] of points) {
      expect(places.findAll(lng, lat).map((s) => s.id)).toEqual([geoid])
      const county = counties.find(lng, lat)
      expect(county).toBeDefined()
      expect(geo.places.get(geoid)!.counties.map((c) => c.fips)).toContain(county!.id)
    }
    expect(places.find(-89.6501, 39.7817, (s) => s.state === 'MO')).toBeUndefined()
  })

  it('never binds a CDP as a taxing place, even when the USPS city names one', () => {
    for (const zip of geo.zips.values()) {
      for (const binding of zip.places) expect(geo.places.get(binding.geoid)?.kind).toBe('incorporated')
    }
    for (const shape of geo.placeShapes) expect(geo.places.get(shape.id)?.kind).toBe('incorporated')

    const byName = new Map<string, GeoPlace[]>()
    for (const p of geo.places.values()) {
      const key = `${p.state}|${placeMatchKey(p.name)}`
      byName.set(key, [...(byName.get(key) ?? []), p])
    }
    const cdpNamed = [...geo.zips.values()].filter((zip) => {
      const named = byName.get(`${zip.state}|${placeMatchKey(zip.city)}`) ?? []
      return (
        named.every((p) => p.kind === 'cdp') &&
        named.some((p) => p.counties.some((c) => zip.counties.some((z) => z.fips === c.fips)))
      )
    })
    expect(cdpNamed.length).toBeGreaterThan(10)
    for (const zip of cdpNamed) expect(zip.places.every((b) => b.method === 'centroid_polygon')).toBe(true)
  })

  it('binds SAINT PAUL ZIPs to St. Paul city in a county the ZIP touches', () => {
    const stPaul = [...geo.places.values()].find((p) => p.state === 'MN' && p.fullName === 'St. Paul city')!
    const zip = geo.zips.get('55101')!
    expect(zip.city).toBe('SAINT PAUL')
    expect(zip.places).toEqual([{ geoid: stPaul.geoid, name: 'St. Paul', countyFips: '27123', method: 'preferred_city' }])
    expect(zip.counties.map((c) => c.fips)).toContain('27123')
  })

  it('binds both the ZCTA point\'s place and the USPS city\'s place when they differ, the point\'s first (pitfalls P24/P30)', () => {
    let shared = 0
    for (const zip of geo.zips.values()) {
      for (const binding of zip.places) {
        expect(zip.counties.map((c) => c.fips)).toContain(binding.countyFips)
        const place = geo.places.get(binding.geoid)!
        expect(place.counties.map((c) => c.fips)).toContain(binding.countyFips)
        if (binding.method === 'centroid_polygon') {
          const shape = geo.placeShapes.find((s) => s.id === binding.geoid)!
          expect(shapeContains(shape, zip.lng!, zip.lat!)).toBe(true)
        } else {
          expect(placeMatchKeys(place.fullName)).toContain(placeMatchKey(zip.city))
        }
      }
      expect(zip.places.length).toBeLessThanOrEqual(2)
      if (zip.places.length === 2) {
        shared++
        expect(zip.places.map((b) => b.method)).toEqual(['centroid_polygon', 'preferred_city'])
        expect(zip.places[0]!.geoid).not.toBe(zip.places[1]!.geoid)
      }
    }
    expect(shared).toBeGreaterThan(10)
    // Edina 55435 is addressed MINNEAPOLIS; its point lies in Edina (pitfall P24).
    const edina = geo.zips.get('55435')!
    expect(edina.city).toBe('MINNEAPOLIS')
    expect(edina.places.map((b) => [b.name, b.method])).toEqual([
      ['Edina', 'centroid_polygon'],
      ['Minneapolis', 'preferred_city'],
    ])
  })

  it('records a sha256 for every input read', () => {
    const hudKey = Object.keys(geo.inputs).find((k) => /ZIP_COUNTY_\d{6}\.csv$/.test(k))!
    expect(geo.inputs[hudKey]).toMatch(/^[0-9a-f]{64}$/)
    expect(Object.keys(geo.inputs).filter((k) => k.includes('_place_500k')).length).toBe(SUBSET.length)
  })
})

describe('buildGeography (national)', () => {
  it('builds every ZIP, place and shape', async () => {
    const geo = await buildGeography(GEO_DIR)

    expect(geo.zips.size).toBe(rawHudRows().size)
    expect(geo.places.size).toBeGreaterThan(30_000)
    expect(geo.placeShapes.length).toBeGreaterThan(19_000)
    expect(geo.countyShapes.length).toBeGreaterThan(3_200)
    const straddling = geo.straddlers.map((s) => s.zip)
    for (const zip of ['42223', '38876', '20301', '45275', '03804', '72643']) expect(straddling).toContain(zip)
    // Shared ZIPs whose USPS city is the neighbour of the place the point lies in (pitfall P30):
    // West Hollywood's 90069 (point in Los Angeles), and 94806 SAN PABLO (point in Richmond).
    const bound = (zip: string) => geo.zips.get(zip)!.places.map((b) => [b.name, b.method])
    expect(bound('90069')).toEqual([['Los Angeles', 'centroid_polygon'], ['West Hollywood', 'preferred_city']])
    expect(bound('94806')).toEqual([['Richmond', 'centroid_polygon'], ['San Pablo', 'preferred_city']])
  }, 120_000)
})
