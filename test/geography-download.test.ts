// Geography inputs downloaded over real HTTP (the Census files rebuilt from ../shared in their
// published layouts, served from a base URL laid out in folders as a mirror keeps them) build the
// same geography as the directory holding them, are kept under build/raw, and a download that goes
// wrong or arrives unreadable takes the copy the data in service was built on; only a first run with
// no copy fails.
import { cpSync, existsSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { unzipSync, zipSync } from 'fflate'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import { CENSUS_CODES_FOLDER, CENSUS_RELATIONSHIP_FOLDER, fetchGeographyInputs, loadGeography } from '../pipeline/geography/load-geography.ts'
import { writePlaceByCountyFile, writeZctaCountyFile, writeZctaPlaceFile } from './support/census-files.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { loadSnapshot, readCurrentId } from '../snapshot-contract/snapshot-store.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { heldDrops } from './support/held-drops.ts'
import { pipelineSettings, refreshProcess, runRefresh } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const ZCTA_COUNTY_PATH = `/${CENSUS_RELATIONSHIP_FOLDER}/tab20_zcta520_county20_natl.txt`
const GA_PLACES_PATH = '/census-places-2015/cb_2015_13_place_500k.zip'

/** The relationship file as published, one column renamed as a new vintage might: the reader needs AREALAND_PART. */
const renamedColumn = (root: string) => {
  const [header, ...rows] = readFileSync(path.join(root, ZCTA_COUNTY_PATH), 'utf8').split('\n')
  return Buffer.from([header!.replace('|AREALAND_PART|', '|AREALAND_PART_20|'), ...rows].join('\n'))
}
/** The published Georgia place zip with its attribute table (.dbf) left out: a ZIP, and no shapefile. */
const withoutDbf = () => {
  const members = unzipSync(readFileSync(sharedPath('geo', GA_PLACES_PATH)))
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(members).filter(([name]) => !name.endsWith('.dbf')))))
}

/** A mirror directory: census-rel2020/, census-codes2020/ and census-places-2015/ (no HUD, no Geocorr). */
async function censusMirrorDir(root: string): Promise<void> {
  await Promise.all([
    writeZctaCountyFile(path.join(root, CENSUS_RELATIONSHIP_FOLDER)),
    writeZctaPlaceFile(path.join(root, CENSUS_RELATIONSHIP_FOLDER), ['CA', 'GA']),
    writePlaceByCountyFile(path.join(root, CENSUS_CODES_FOLDER)),
  ])
  cpSync(sharedPath('geo/census-places-2015'), path.join(root, 'census-places-2015'), { recursive: true })
}

// every temporary directory a test makes, removed when the file ends
const made: string[] = []
const madeDir = async (label: string) => {
  const dir = await tempDir(label)
  made.push(dir)
  return dir
}

let root: string
let geo: FaultMirror
beforeAll(async () => {
  root = await madeDir('geo-mirror')
  await censusMirrorDir(root)
  geo = await startFaultMirror(root)
})
afterAll(async () => {
  await geo?.close()
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })))
})

const settingsWithGeo = async (geoUrl: string) =>
  pipelineSettings({ mirror: inject('mirrorUrl'), artifacts: await madeDir('artifacts'), build: await madeDir('build'), extra: { TAXATLAS_GEO: geoUrl } })

const zipsOf = (geography: Geography) => [...geography.zips.values()].sort((a, b) => a.zip.localeCompare(b.zip))

describe('geography from its publishers (served over HTTP)', () => {
  it('downloads the Census relationship files, place list and shapefiles, and builds the same geography as the directory holding them', async () => {
    const settings = await settingsWithGeo(geo.url)
    expect(settings.geo).toEqual({ kind: 'url', base: geo.url })
    const [downloaded, offline] = await Promise.all([loadGeography(settings), buildGeography(root)])
    expect(Object.keys(downloaded.inputs)).toEqual(
      expect.arrayContaining([
        'census-rel2020/tab20_zcta520_county20_natl.txt',
        'census-rel2020/tab20_zcta520_place20_natl.txt',
        'census-codes2020/national_place_by_county2020.txt',
        'census-places-2015/cb_2015_us_state_500k.zip',
        'census-places-2015/cb_2015_06_place_500k.zip',
      ]),
    )
    expect(Object.keys(downloaded.inputs).some((label) => /hud|geocorr/i.test(label))).toBe(false)
    expect(Object.values(downloaded.inputs).sort()).toEqual(Object.values(offline.inputs).sort())
    expect(downloaded.zips.size).toBe(offline.zips.size)
    expect(zipsOf(downloaded)).toEqual(zipsOf(offline))
    expect([...downloaded.places.values()]).toEqual([...offline.places.values()])
    expect([...downloaded.counties.values()]).toEqual([...offline.counties.values()])
    expect(downloaded.straddlers).toEqual(offline.straddlers)

    // every input is kept under build/raw/<folder>/<sha256 prefix>/<name>
    const { inputs, reused } = await fetchGeographyInputs(settings, settings.geo)
    expect(reused).toEqual([])
    for (const input of [inputs.zctaCounty!, inputs.zctaPlace!, inputs.placeByCounty!, inputs.states, ...inputs.places]) {
      expect(input.file.startsWith(path.join(settings.buildDir, 'raw', path.dirname(input.label)))).toBe(true)
      expect(existsSync(input.file)).toBe(true)
    }
    expect(inputs.places).toHaveLength(56)
  })
})

describe('geography download faults', () => {
  const refreshEnv = async (artifacts: string, build: string, now: string) => ({
    TAXATLAS_MIRROR: inject('mirrorUrl'),
    TAXATLAS_GEO: geo.url,
    TAXATLAS_DROPS: await heldDrops('GA,CT'),
    TAXATLAS_ARTIFACTS: artifacts,
    TAXATLAS_BUILD: build,
    TAXATLAS_STATES: 'GA,CT',
    TAXATLAS_NOW: now,
  })

  it('E10/P35 a Census file that answers 403, a sign-in page with 200, a header missing a column or a place zip with no attribute table is taken from the copy the data in service was built on: the run publishes, and says so', async () => {
    const artifacts = await madeDir('artifacts')
    const build = await madeDir('build')
    const first = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build, drops: await heldDrops('GA,CT'), states: 'GA,CT', extra: { TAXATLAS_GEO: geo.url } }))
    const relationship = 'census-rel2020/tab20_zcta520_county20_natl.txt'
    expect(first.manifest!.geography.inputs[relationship]).toMatch(/^[0-9a-f]{64}$/)

    const signIn = '<!DOCTYPE html><html><head><title>Census Login</title></head><body><form action="/login"></form></body></html>'
    const faults = [
      [ZCTA_COUNTY_PATH, { kind: 'status', status: 403 }, /GET http:\/\/127\.0\.0\.1:\d+\/census-rel2020\/tab20_zcta520_county20_natl\.txt failed: .*403 \(Forbidden\).*; asked again as a browser: GET .*403/],
      [ZCTA_COUNTY_PATH, { kind: 'bytes', bytes: Buffer.from(signIn) }, /the server answered an HTML page \("Census Login"\) in place of the file/],
      [ZCTA_COUNTY_PATH, { kind: 'bytes', bytes: renamedColumn(root) }, /downloaded but unreadable: tab20_zcta520_county20_natl\.txt lacks the column\(s\) AREALAND_PART \(header: /],
      [GA_PLACES_PATH, { kind: 'bytes', bytes: withoutDbf() }, /downloaded but unreadable: shapefile zip has no \.dbf/],
    ] as const
    for (const [i, [at, fault, why]] of faults.entries()) {
      const label = at.slice(1)
      geo.faults.set(at, fault)
      const run = await refreshProcess(await refreshEnv(artifacts, build, `2026-11-${22 + i}T03:00:00.000Z`))
      geo.faults.clear()
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stderr).toMatch(new RegExp(`geography input not downloaded or unreadable, earlier copy used: ${label}: .*; the copy the data in service was built on is used`))
      expect(run.stderr).toMatch(why)
      const published = await loadSnapshot(artifacts, (await readCurrentId(artifacts))!)
      // the same inputs as the data in service: the states' data carried forward, their records saying why
      expect(published.manifest.geography.inputs).toEqual(first.manifest!.geography.inputs)
      const ga = published.manifest.states.find((s) => s.code === 'GA')!
      expect(ga.status).toBe('ok')
      expect(ga.notes).toContain(`geography inputs: 1 could not be downloaded or read (${label}); earlier copies used, the refresh log says why`)
      expect(published.files['rates.bin'].equals((await loadSnapshot(artifacts, first.manifest!.snapshot)).files['rates.bin'])).toBe(true)
    }
  }, 600_000)

  it('a first run whose Census file cannot be downloaded, with no copy held, fails clearly and publishes nothing', async () => {
    const artifacts = await madeDir('artifacts')
    geo.faults.set(ZCTA_COUNTY_PATH, { kind: 'status', status: 403 })
    const run = await refreshProcess(await refreshEnv(artifacts, await madeDir('build'), '2026-11-22T03:00:00.000Z'))
    geo.faults.clear()
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toMatch(/geography input census-rel2020\/tab20_zcta520_county20_natl\.txt could not be downloaded \(GET .* 403 .*\) and no earlier copy of it is held \(a first run, or .* emptied\): nothing can be compiled until it downloads/)
    expect(await readCurrentId(artifacts)).toBeNull()
  }, 300_000)

  it('a first run whose Census file downloads with a column missing, with no copy held, fails naming the input and the column, and publishes nothing', async () => {
    const artifacts = await madeDir('artifacts')
    geo.faults.set(ZCTA_COUNTY_PATH, { kind: 'bytes', bytes: renamedColumn(root) })
    const run = await refreshProcess(await refreshEnv(artifacts, await madeDir('build'), '2026-11-22T03:00:00.000Z'))
    geo.faults.clear()
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toMatch(/geography input census-rel2020\/tab20_zcta520_county20_natl\.txt was downloaded but cannot be read \(tab20_zcta520_county20_natl\.txt lacks the column\(s\) AREALAND_PART \(header: .*\)\) and no earlier copy of it is held \(a first run, or .* emptied\)/)
    expect(await readCurrentId(artifacts)).toBeNull()
  }, 300_000)
})
