// Geography inputs downloaded over real HTTP (the Census files rebuilt from ../shared in their
// published layouts, served from a base URL laid out in folders as a mirror keeps them) build the
// same geography as the directory holding them, are kept under build/raw, and a download that goes
// wrong fails the run cleanly: the snapshot in service stays, marked failed.
import { cpSync, existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
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
    const inputs = await fetchGeographyInputs(settings, settings.geo)
    for (const input of [inputs.zctaCounty!, inputs.zctaPlace!, inputs.placeByCounty!, inputs.states, ...inputs.places]) {
      expect(input.file.startsWith(path.join(settings.buildDir, 'raw', path.dirname(input.label)))).toBe(true)
      expect(existsSync(input.file)).toBe(true)
    }
    expect(inputs.places).toHaveLength(56)
  })
})

describe('geography download faults', () => {
  it('P35 a sign-in page served with 200 in place of a Census file fails the run; the snapshot in service stays, marked failed', async () => {
    const artifacts = await madeDir('artifacts')
    const build = await madeDir('build')
    const first = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build, drops: await heldDrops('GA,CT'), states: 'GA,CT', extra: { TAXATLAS_GEO: geo.url } }))
    expect(first.manifest!.geography.inputs['census-rel2020/tab20_zcta520_county20_natl.txt']).toMatch(/^[0-9a-f]{64}$/)

    const signIn = '<!DOCTYPE html><html><head><title>Census Login</title></head><body><form action="/login"></form></body></html>'
    geo.faults.set(ZCTA_COUNTY_PATH, { kind: 'bytes', bytes: Buffer.from(signIn) })
    const run = await refreshProcess({
      TAXATLAS_MIRROR: inject('mirrorUrl'),
      TAXATLAS_GEO: geo.url,
      TAXATLAS_DROPS: await heldDrops('GA,CT'),
      TAXATLAS_ARTIFACTS: artifacts,
      TAXATLAS_BUILD: build,
      TAXATLAS_STATES: 'GA,CT',
      TAXATLAS_NOW: '2026-11-22T03:00:00.000Z',
    })
    geo.faults.clear()
    expect(run.exitCode, run.stderr).toBe(1)
    expect(run.stderr, run.stderr).toMatch(/republished snapshot/)
    expect(run.stderr).toMatch(/tab20_zcta520_county20_natl\.txt: the server answered an HTML page \("Census Login"\) in place of the file/)
    const current = (await readCurrentId(artifacts))!
    expect(current).not.toBe(first.manifest!.snapshot)
    const republished = await loadSnapshot(artifacts, current)
    const before = await loadSnapshot(artifacts, first.manifest!.snapshot)
    expect(republished.files['rates.bin'].equals(before.files['rates.bin'])).toBe(true)
    const ga = republished.manifest.states.find((s) => s.code === 'GA')!
    expect(ga.status).toBe('failed')
    expect(ga.notes[0]).toMatch(/^refresh run failed, previous data kept: .*Census Login/)
    expect(ga.last_refreshed_at).toBe(first.manifest!.states.find((s) => s.code === 'GA')!.last_refreshed_at)
    expect(republished.manifest.states.find((s) => s.code === 'CT')!.status).toBe('static')
    // a state the run was not asked to refresh keeps its record
    expect(republished.manifest.states.find((s) => s.code === 'WI')!.status).toBe('unknown')
  }, 300_000)
})
