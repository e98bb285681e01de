// Geography from the Census 2020 files that need no sign-in (ZCTA→county, ZCTA→place,
// place-by-county), rebuilt in their published layouts from the real data in ../shared
// (support/census-files.ts), with the `zipcodes` USPS list for ZIPs that have no ZCTA; HUD through
// its API; and the refresh run on them.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { placeShares } from '../pipeline/feeds/candidate-weights.ts'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import { censusSetAsideNotes, parsePlaceByCounty, parseZctaCounty, parseZctaPlace, ZCTA_COUNTY_FILE, ZCTA_PLACE_FILE } from '../pipeline/geography/census-relationship.ts'
import { fetchHudCrosswalk } from '../pipeline/geography/hud-api.ts'
import { parseHudCrosswalk } from '../pipeline/geography/hud-crosswalk.ts'
import { readUspsZips } from '../pipeline/geography/usps-zips.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { PlaceIndex, writePlaceIndex } from '../snapshot-contract/place-index.ts'
import { loadSnapshot, readCurrentId } from '../snapshot-contract/snapshot-store.ts'
import { PLACE_BY_COUNTY_HEADER, writeCensusGeographyFiles, writePlaceByCountyFile, writeZctaCountyFile, writeZctaPlaceFile, ZCTA_COUNTY_HEADER, ZCTA_PLACE_HEADER } from './support/census-files.ts'
import { heldDrops } from './support/held-drops.ts'
import { pipelineSettings, refreshProcess, runRefresh, tempDir } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'

const GA_FIPS = '13'
const hud = parseHudCrosswalk(await readFile(sharedPath('geo/hud/ZIP_COUNTY_032023.csv'), 'utf8'))
const hudZipsOf = (state: string) => [...hud.values()].filter((zip) => zip.state === state && zip.counties.length > 0)

/** A directory holding the Census files and the 2015 state and GA place shapefiles (no HUD, no Geocorr). */
async function censusGeoDir(): Promise<string> {
  const dir = await tempDir('census-geo')
  await writeCensusGeographyFiles(path.join(dir, 'census'), { placeStates: ['GA'] })
  await mkdir(path.join(dir, 'census-places-2015'))
  for (const name of ['cb_2015_us_state_500k.zip', `cb_2015_${GA_FIPS}_place_500k.zip`]) {
    await copyFile(sharedPath('geo/census-places-2015', name), path.join(dir, 'census-places-2015', name))
  }
  return dir
}

describe('geography from the Census files (no HUD, no Geocorr)', () => {
  let dir: string
  let geo: Geography
  beforeAll(async () => {
    dir = await censusGeoDir()
    geo = await buildGeography(dir, { states: ['GA'] })
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it("puts most GA ZIPs in HUD's largest county", () => {
    const compared = hudZipsOf('GA').filter((zip) => geo.zips.get(zip.zip)?.counties.length)
    const agreeing = compared.filter((zip) => geo.zips.get(zip.zip)!.counties[0]!.fips === zip.counties[0]!.fips)
    expect(compared.length).toBeGreaterThan(0.95 * hudZipsOf('GA').length)
    expect(agreeing.length / compared.length).toBeGreaterThan(0.85)
    for (const zip of compared) {
      const weights = geo.zips.get(zip.zip)!.counties.reduce((sum, c) => sum + c.weight, 0)
      expect(weights, zip.zip).toBeCloseTo(1, 9)
    }
  })

  it('resolves PO-box and unique ZIPs with no ZCTA to their state and, by their point, a county (P28)', async () => {
    const zctas = parseZctaCounty(await readFile(path.join(dir, 'census', ZCTA_COUNTY_FILE))).parts
    const usps = readUspsZips()
    const poBoxes = hudZipsOf('GA').filter((zip) => !zctas.has(zip.zip) && usps.has(zip.zip))
    expect(poBoxes.length).toBeGreaterThan(50)
    let sameCity = 0
    const agreeing = poBoxes.filter((zip) => {
      const built = geo.zips.get(zip.zip)!
      expect(built).toMatchObject({ state: 'GA', zcta: false, centroidSource: 'usps', states: ['GA'] })
      if (built.city === zip.city) sameCity++
      return built.counties[0]?.fips === zip.counties[0]!.fips
    })
    // a post office point in the coarse us-atlas county shapes vs HUD's address shares: most agree
    expect(agreeing.length / poBoxes.length).toBeGreaterThan(0.75)
    // the USPS list and HUD (2023) mostly agree on the city; renamed ones (FORT BENNING → FORT MOORE) differ
    expect(sameCity / poBoxes.length).toBeGreaterThan(0.9)
  })

  it('binds ZIPs to places by land share: shares sum to at most 1, CDPs never bind', async () => {
    const placeFile = await readFile(path.join(dir, 'census', ZCTA_PLACE_FILE))
    const cdps = new Set([...geo.places.values()].filter((p) => p.kind === 'cdp').map((p) => p.geoid))
    const zctasInCdp = [...parseZctaPlace(placeFile).parts].filter(([, parts]) => parts.some((p) => cdps.has(p.geoid)))
    expect(zctasInCdp.length).toBeGreaterThan(10)
    for (const [zcta] of zctasInCdp) for (const place of geo.zips.get(zcta)?.places ?? []) expect(cdps.has(place.geoid), zcta).toBe(false)
    let shared = 0
    for (const zip of geo.zips.values()) {
      const total = zip.places.reduce((sum, p) => sum + (p.share ?? 0), 0)
      expect(total, zip.zip).toBeLessThanOrEqual(1 + 1e-9)
      for (const place of zip.places) expect(geo.places.get(place.geoid)?.kind, zip.zip).toBe('incorporated')
      if (zip.zcta && zip.places.length) {
        shared++
        expect(zip.places.every((p) => p.method === 'zcta_area' && p.share! > 0)).toBe(true)
      }
    }
    expect(shared).toBeGreaterThan(100)
    expect(geo.zips.get('30303')?.places.map((p) => p.name)).toEqual(['Atlanta'])
  })

  it('splits a county part among measured places in proportion to their land', () => {
    const [a, b] = [
      { geoid: '1304000', name: 'Atlanta', countyFips: '13121', method: 'zcta_area' as const, share: 0.6 },
      { geoid: '1317776', name: 'College Park', countyFips: '13121', method: 'zcta_area' as const, share: 0.2 },
    ]
    const shares = placeShares([a, b], new Map())
    expect(shares.map((s) => [s.place.geoid, s.basis])).toEqual([
      ['1304000', 'zip_area'],
      ['1317776', 'zip_area'],
    ])
    expect(shares[0]!.share).toBeCloseTo(0.75, 12)
    expect(shares[1]!.share).toBeCloseTo(0.25, 12)
  })

  it('holds no populations, so places of one name are found largest by land area first', () => {
    const measured = [...geo.places.values()].filter((place) => place.landArea !== undefined).sort((a, b) => a.geoid.localeCompare(b.geoid))
    const [first] = measured
    const larger = measured.filter((place) => place.landArea! > first!.landArea!).at(-1)!
    expect(measured.every((place) => place.population === 0)).toBe(true)
    // Two real GA places given one name, the larger listed later by GEOID.
    const renamed = { ...larger, name: first!.name, fullName: first!.fullName }
    const index = new PlaceIndex(writePlaceIndex({ ...geo, places: new Map([...geo.places, [larger.geoid, renamed]]) }))
    const found = index.find(first!.name, 'GA').map((match) => match.geoid)
    expect(found.slice(0, 2)).toEqual([larger.geoid, first!.geoid])
  })

  it('names places, their kind and counties from the place-by-county list', () => {
    const atlanta = geo.places.get('1304000')!
    expect(atlanta).toMatchObject({ name: 'Atlanta', fullName: 'Atlanta city', kind: 'incorporated', state: 'GA' })
    expect(atlanta.counties.map((c) => c.fips).sort()).toEqual(['13089', '13121'])
    expect(atlanta.landArea).toBeGreaterThan(0)
    expect(geo.counties.get('13121')?.name).toBe('Fulton')
  })
})

describe('Census files that are not what they should be', () => {
  let dir: string
  let countyFile: Buffer
  beforeAll(async () => {
    dir = await tempDir('census-files')
    countyFile = await readFile(await import('./support/census-files.ts').then((m) => m.writeZctaCountyFile(dir)))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const lines = () => countyFile.toString('utf8').split('\r\n')

  it('drops rows with an empty ZCTA side (county land outside every ZCTA)', () => {
    const [header, ...rows] = lines()
    const emptyZcta = rows.filter((row) => row).slice(0, 50).map((row) => ['', '', '', '', '', '', '', '', ...row.split('|').slice(8)].join('|'))
    const withEmpty = Buffer.from([header, ...emptyZcta, ...rows].join('\r\n'))
    expect(parseZctaCounty(withEmpty).parts).toEqual(parseZctaCounty(countyFile).parts)
  })

  it('a renamed column is named in the error', () => {
    const renamed = Buffer.from(countyFile.toString('utf8').replace('AREALAND_PART', 'AREALAND_PT'))
    expect(() => parseZctaCounty(renamed)).toThrow(/tab20_zcta520_county20_natl\.txt lacks the column\(s\) AREALAND_PART/)
    const placeList = Buffer.from('STATE|STATEFP|COUNTYFP|COUNTYNAME|PLACEFP|PLACENS|PLACENAME|CLASSFP|FUNCSTAT\nGA|13|121|Fulton County|04000|02403126|Atlanta city|C5|A\n')
    expect(() => parsePlaceByCounty(placeList)).toThrow(/national_place_by_county2020\.txt lacks the column\(s\) TYPE/)
  })

  it('reads a place list in UTF-8 or, when it is not valid UTF-8, in Windows-1252', () => {
    const text = 'STATE|STATEFP|COUNTYFP|COUNTYNAME|PLACEFP|PLACENS|PLACENAME|TYPE|CLASSFP|FUNCSTAT\nCO|08|043|Fremont County|11810|02409978|Cañon City city|INCORPORATED PLACE|C1|A\n'
    const latin1 = Buffer.from(text, 'latin1')
    for (const bytes of [Buffer.from(text, 'utf8'), latin1]) expect(parsePlaceByCounty(bytes).places.get('0811810')).toMatchObject({ name: 'Cañon City', kind: 'incorporated', counties: [{ fips: '08043', share: 1 }] })
  })

  it('an HTML page or an empty file in place of the file is refused by name', () => {
    const page = Buffer.from('<!DOCTYPE html><html><head><title>Page Not Found</title></head><body></body></html>')
    expect(() => parseZctaPlace(page)).toThrow(/tab20_zcta520_place20_natl\.txt is an HTML page/)
    expect(() => parseZctaCounty(Buffer.from('\uFEFF'))).toThrow(/tab20_zcta520_county20_natl\.txt is empty/)
    expect(() => parseZctaCounty(Buffer.from(lines()[0]!))).toThrow(/has a header and no rows/)
  })
})

describe('a Census row that does not read, deep in the file', () => {
  let dir: string
  const lines: Record<'county' | 'place' | 'list', string[]> = { county: [], place: [], list: [] }
  beforeAll(async () => {
    dir = await tempDir('census-rows')
    const files = await Promise.all([writeZctaCountyFile(dir), writeZctaPlaceFile(dir, ['GA']), writePlaceByCountyFile(dir)])
    const [county, place, list] = await Promise.all(files.map((file) => readFile(file, 'utf8')))
    Object.assign(lines, { county: county!.split('\r\n'), place: place!.split('\r\n'), list: list!.split('\r\n') })
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  /** The header and the first `rows` rows of a file, the rows numbered in `edits` (1-based, the header row 0) edited cell by cell. */
  const few = (file: string[], header: readonly string[], rows: number, edits: Record<number, (cell: Record<string, string>) => void> = {}) =>
    Buffer.from(
      file
        .slice(0, rows + 1)
        .map((line, i) => {
          const edit = edits[i]
          if (!edit) return line
          const cells = Object.fromEntries(line.split('|').map((value, at) => [header[at]!, value]))
          edit(cells)
          return header.map((name) => cells[name] ?? '').join('|')
        })
        .join('\r\n'),
    )
  /** A land area written with thousands separators, as a spreadsheet export prints it. */
  const withSeparators = (column: string) => (cells: Record<string, string>) => void (cells[column] = Number(cells[column]).toLocaleString('en-US'))
  const cell = (file: string[], header: readonly string[], row: number, column: string) => file[row]!.split('|')[header.indexOf(column)]!

  it('ZCTA→county: a land area with thousands separators sets its row aside, named with its line, its ZCTA left to the reading of ZIPs without one; every other ZCTA reads as before', () => {
    const intact = parseZctaCounty(few(lines.county, ZCTA_COUNTY_HEADER, 400))
    const broken = parseZctaCounty(few(lines.county, ZCTA_COUNTY_HEADER, 400, { 300: withSeparators('AREALAND_PART') }))
    const zcta = cell(lines.county, ZCTA_COUNTY_HEADER, 300, 'GEOID_ZCTA5_20')
    const part = Number(cell(lines.county, ZCTA_COUNTY_HEADER, 300, 'AREALAND_PART'))
    expect(broken.setAside.count).toBe(1)
    expect(censusSetAsideNotes(ZCTA_COUNTY_FILE, broken.setAside)).toEqual([`${ZCTA_COUNTY_FILE}: 1 row(s) set aside (line 301: bad AREALAND_PART ${JSON.stringify(part.toLocaleString('en-US'))}): their ZCTAs are placed as ZIPs without a ZCTA are, by the USPS list and its point`])
    expect(intact.parts.has(zcta)).toBe(true)
    expect(broken.parts).toEqual(new Map([...intact.parts].filter(([key]) => key !== zcta)))
    expect(intact.setAside.count).toBe(0)
  })

  it('ZCTA→place: a place\'s land with thousands separators sets its row aside; its ZCTA binds by its point, the others by their land shares', () => {
    const broken = parseZctaPlace(few(lines.place, ZCTA_PLACE_HEADER, 200, { 150: withSeparators('AREALAND_PLACE_20') }))
    const zcta = cell(lines.place, ZCTA_PLACE_HEADER, 150, 'GEOID_ZCTA5_20')
    expect(broken.setAside.named()).toMatch(/^line 151: bad AREALAND_PLACE_20 "\d{1,3}(,\d{3})+"$/)
    expect([...broken.unread]).toEqual([zcta])
    expect(broken.parts.has(zcta)).toBe(false)
    expect(broken.parts.size).toBe(parseZctaPlace(few(lines.place, ZCTA_PLACE_HEADER, 200)).parts.size - 1)
  })

  it('place by county: a line cut short after its county sets its row aside; the other places read', () => {
    const cut = (cells: Record<string, string>) => {
      for (const name of PLACE_BY_COUNTY_HEADER.slice(PLACE_BY_COUNTY_HEADER.indexOf('PLACEFP'))) delete cells[name]
    }
    const intact = parsePlaceByCounty(few(lines.list, PLACE_BY_COUNTY_HEADER, 300))
    const broken = parsePlaceByCounty(few(lines.list, PLACE_BY_COUNTY_HEADER, 300, { 250: cut }))
    const [state, stateFips, countyFp] = lines.list[250]!.split('|')
    expect(broken.setAside.named()).toBe(`line 251: bad STATE/STATEFP/COUNTYFP/PLACEFP ${JSON.stringify([state, stateFips, countyFp, ''])}`)
    const geoid = stateFips! + cell(lines.list, PLACE_BY_COUNTY_HEADER, 250, 'PLACEFP')
    const without = intact.places.get(geoid)!.counties.filter((c) => c.fips !== stateFips! + countyFp!).map((c) => c.fips)
    expect(broken.places.get(geoid)?.counties.map((c) => c.fips) ?? []).toEqual(without)
    for (const [other, place] of intact.places) if (other !== geoid) expect(broken.places.get(other)).toEqual(place)
  })

  it('fails a file past the share a file may set aside: 21 rows of 400 (more than 5%)', () => {
    const edits = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [100 + i * 10, withSeparators('AREALAND_PART')]))
    const twenty = Object.fromEntries(Object.entries(edits).slice(0, 20))
    expect(parseZctaCounty(few(lines.county, ZCTA_COUNTY_HEADER, 400, twenty)).setAside.count).toBe(20)
    expect(() => parseZctaCounty(few(lines.county, ZCTA_COUNTY_HEADER, 400, edits))).toThrow(/^tab20_zcta520_county20_natl\.txt: 21 of 400 rows set aside, more than 5% \(20\): its layout or units changed\? \(line 101: bad AREALAND_PART/)
  })
})

describe('HUD crosswalk through the HUD User API', () => {
  let server: http.Server
  let base: string
  const requests: { url: string; authorization?: string; accept?: string }[] = []
  // shaped as publisher-evidence.md C.5 documents: `data` an object for one state, a list for another
  const bodies: Record<string, unknown> = {
    GA: { data: { year: 2025, quarter: 'Q1', input: 'GA', crosswalk_type: 'zip-county', results: [
      { zip: '30303', geoid: '13121', res_ratio: 1, bus_ratio: 1, oth_ratio: 1, tot_ratio: 1, city: 'ATLANTA', state: 'GA' },
      { zip: '30002', geoid: '13089', res_ratio: 0.9, bus_ratio: 1, oth_ratio: 1, tot_ratio: 0.92 },
      { zip: '30002', geoid: '13121', res_ratio: 0.1, bus_ratio: 0, oth_ratio: 0, tot_ratio: 0.08 },
    ] } },
    DE: { data: [{ year: 2025, quarter: 'Q1', input: 'DE', crosswalk_type: 'zip-county', results: [
      { zip: '19901', geoid: '10001', res_ratio: 1, bus_ratio: 1, oth_ratio: 1, tot_ratio: 1, usps_zip_pref_city: 'DOVER', usps_zip_pref_state: 'DE' },
    ] }] },
  }
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://x')
      requests.push({ url: req.url!, authorization: req.headers.authorization, accept: req.headers.accept })
      if (req.headers.authorization !== 'Bearer good-token') return void res.writeHead(401).end('{"error":"Unauthorized"}')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(bodies[url.searchParams.get('query')!] ?? { data: { results: [] } }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hudapi/public/usps`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('reads both forms of `data`, one request per state, city and state from the results or the USPS list', async () => {
    const csv = await fetchHudCrosswalk(['GA', 'DE'], readUspsZips(), { token: 'good-token', baseUrl: base, timeoutMs: 30_000, retries: 0 })
    expect(requests.map((r) => r.url)).toEqual(['/hudapi/public/usps?type=2&query=GA', '/hudapi/public/usps?type=2&query=DE'])
    expect(requests.every((r) => r.authorization === 'Bearer good-token' && r.accept === 'application/json')).toBe(true)
    const zips = parseHudCrosswalk(csv)
    expect(zips.get('30303')).toMatchObject({ state: 'GA', city: 'ATLANTA', counties: [{ fips: '13121', weight: 1, residentialWeight: 1 }] })
    expect(zips.get('30002')).toMatchObject({ state: 'GA', city: readUspsZips().get('30002')!.city, counties: [{ fips: '13089', weight: 0.92 }, { fips: '13121', weight: 0.08 }] })
    expect(zips.get('19901')).toMatchObject({ state: 'DE', city: 'DOVER' })
  })

  it('a refused token is named in the error; a state with no rows is an error too', async () => {
    await expect(fetchHudCrosswalk(['GA'], readUspsZips(), { token: 'bad', baseUrl: base, timeoutMs: 30_000, retries: 0 })).rejects.toThrow(/HUD API refused TAXATLAS_HUD_TOKEN \(HTTP 401\)/)
    await expect(fetchHudCrosswalk(['WY'], readUspsZips(), { token: 'good-token', baseUrl: base, timeoutMs: 30_000, retries: 0 })).rejects.toThrow(/no crosswalk rows for WY/)
  })
})

describe('a refresh on the Census geography files', () => {
  let dir: string
  let artifacts: string
  let build: string
  beforeAll(async () => {
    ;[dir, artifacts, build] = await Promise.all([censusGeoDir(), tempDir('artifacts'), tempDir('build')])
  })
  afterAll(() => Promise.all([dir, artifacts, build].map((d) => rm(d, { recursive: true, force: true }))))

  it('sets aside a row deep in the ZCTA→county file that does not read: the refresh log names it with its line, GA serves, its notes say so', async () => {
    const file = path.join(dir, 'census', ZCTA_COUNTY_FILE)
    const original = await readFile(file, 'utf8')
    const lines = original.split('\r\n')
    const at = ZCTA_COUNTY_HEADER.indexOf('AREALAND_PART')
    // a land area with thousands separators, as a spreadsheet export prints it, four fifths of the way down
    const row = lines.findIndex((line, i) => i > lines.length * 0.8 && Number(line.split('|')[at]) >= 1000)
    const cells = lines[row]!.split('|')
    cells[at] = Number(cells[at]).toLocaleString('en-US')
    lines[row] = cells.join('|')
    const [ownArtifacts, ownBuild] = await Promise.all([tempDir('artifacts'), tempDir('build')])
    try {
      await writeFile(file, lines.join('\r\n'))
      const run = await refreshProcess({ TAXATLAS_MIRROR: inject('mirrorUrl'), TAXATLAS_GEO: dir, TAXATLAS_DROPS: await heldDrops('GA'), TAXATLAS_ARTIFACTS: ownArtifacts, TAXATLAS_BUILD: ownBuild, TAXATLAS_STATES: 'GA', TAXATLAS_NOW: '2026-11-21T03:00:00.000Z' })
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stderr).toContain(`geography input rows set aside: census/${ZCTA_COUNTY_FILE}: 1 row(s) set aside (line ${row + 1}: bad AREALAND_PART ${JSON.stringify(cells[at])})`)
      const ga = (await loadSnapshot(ownArtifacts, (await readCurrentId(ownArtifacts))!)).manifest.states.find((s) => s.code === 'GA')!
      expect(ga.status).toBe('ok')
      expect(ga.notes).toContain(`geography rows set aside: census/${ZCTA_COUNTY_FILE} had rows that do not read, set aside; the refresh log names them`)
    } finally {
      await Promise.all([writeFile(file, original), rm(ownArtifacts, { recursive: true, force: true }), rm(ownBuild, { recursive: true, force: true })])
    }
  }, 300_000)

  it('publishes GA ok from its SST file; a Census file with a changed header then fails the run and the snapshot in service stays', async () => {
    const first = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build, drops: await heldDrops('GA'), states: 'GA', extra: { TAXATLAS_GEO: dir } }))
    expect(first.manifest, first.reason).not.toBeNull()
    expect(first.manifest!.states.find((s) => s.code === 'GA')!.status).toBe('ok')
    expect(Object.keys(first.manifest!.geography.inputs)).toEqual(expect.arrayContaining([`census/${ZCTA_COUNTY_FILE}`, `census/${ZCTA_PLACE_FILE}`, 'census/national_place_by_county2020.txt', 'zipcodes/lib/codes.js']))

    const placeFile = path.join(dir, 'census', ZCTA_PLACE_FILE)
    await writeFile(placeFile, (await readFile(placeFile, 'utf8')).replace('GEOID_PLACE_20', 'GEOID_PLACE_2020'))
    const run = await refreshProcess({
      TAXATLAS_MIRROR: inject('mirrorUrl'),
      TAXATLAS_GEO: dir,
      TAXATLAS_DROPS: await heldDrops('GA'),
      TAXATLAS_ARTIFACTS: artifacts,
      TAXATLAS_BUILD: build,
      TAXATLAS_STATES: 'GA',
      TAXATLAS_NOW: '2026-11-22T03:00:00.000Z',
    })
    expect(run.exitCode, run.stderr).toBe(1)
    expect(run.stderr).toMatch(/tab20_zcta520_place20_natl\.txt lacks the column\(s\) GEOID_PLACE_20/)
    expect(run.stderr).toMatch(/republished snapshot/)
    const current = await loadSnapshot(artifacts, (await readCurrentId(artifacts))!)
    const before = await loadSnapshot(artifacts, first.manifest!.snapshot)
    expect(current.files['rates.bin'].equals(before.files['rates.bin'])).toBe(true)
    const ga = current.manifest.states.find((s) => s.code === 'GA')!
    expect(ga.status).toBe('failed')
    expect(ga.notes[0]).toMatch(/previous data kept: .*GEOID_PLACE_20/)
  }, 300_000)
})
