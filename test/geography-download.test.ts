// Geography inputs downloaded over real HTTP (../shared/geo served like the publishers' files)
// build the same geography as the offline directory, are kept under build/raw, and a download
// that goes wrong fails the run cleanly: the snapshot in service stays, marked failed.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import { fetchGeographyInputs, geocorrRequestUrl, loadGeography } from '../pipeline/geography/load-geography.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { loadSnapshot, readCurrentId } from '../snapshot-contract/snapshot-store.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { pipelineSettings, refreshProcess, runRefresh } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const settingsWithGeo = async (geo: string) =>
  pipelineSettings({ mirror: inject('mirrorUrl'), artifacts: await tempDir('artifacts'), build: await tempDir('build'), extra: { TAXATLAS_GEO: geo } })

const zipsOf = (geography: Geography) => [...geography.zips.values()].sort((a, b) => a.zip.localeCompare(b.zip))

describe('geography from its publishers (served over HTTP)', () => {
  let offline: Geography
  beforeAll(async () => {
    offline = await buildGeography(sharedPath('geo'))
  })

  it('downloads the HUD workbook, the Census shapefiles and the Geocorr table, and builds the same geography', async () => {
    const settings = await settingsWithGeo(inject('geoUrl'))
    expect(settings.geo).toEqual({ kind: 'url', base: inject('geoUrl') })
    const downloaded = await loadGeography(settings)
    expect(Object.keys(downloaded.inputs)).toEqual(
      expect.arrayContaining(['hud/ZIP_COUNTY_032023.xlsx', 'census-places-2015/cb_2015_us_state_500k.zip', 'census-places-2015/cb_2015_06_place_500k.zip', 'geocorr/geocorr2022_2507107313.csv']),
    )
    // the workbook HUD publishes holds the same crosswalk as the CSV converted from it
    expect(downloaded.zips.size).toBe(offline.zips.size)
    expect(zipsOf(downloaded)).toEqual(zipsOf(offline))
    expect([...downloaded.places.values()]).toEqual([...offline.places.values()])
    expect([...downloaded.counties.values()]).toEqual([...offline.counties.values()])
    expect(downloaded.straddlers).toEqual(offline.straddlers)

    // every input is kept under build/raw/<folder>/<sha256 prefix>/<name>
    const inputs = await fetchGeographyInputs(settings, settings.geo)
    for (const input of [inputs.hud, inputs.geocorr, inputs.states, ...inputs.places]) {
      expect(input.file.startsWith(path.join(settings.buildDir, 'raw', path.dirname(input.label)))).toBe(true)
      expect(existsSync(input.file)).toBe(true)
    }
    expect(inputs.places).toHaveLength(56)
  })

  it('asks MCDC for a county×place table of every state with the Geocorr form request', () => {
    const url = new URL(geocorrRequestUrl([['06', 'CA'], ['72', 'PR']]))
    expect(url.origin + url.pathname).toBe('https://mcdc.missouri.edu/cgi-bin/broker')
    expect(url.searchParams.getAll('state')).toEqual(['Ca06', 'Pr72'])
    expect(url.searchParams.get('g1_')).toBe('county')
    expect(url.searchParams.get('g2_')).toBe('place')
  })
})

describe('geography download faults', () => {
  let geo: FaultMirror
  beforeAll(async () => {
    geo = await startFaultMirror(sharedPath('geo'))
  })
  afterAll(() => geo.close())

  it('P35 a sign-in page served with 200 in place of the HUD workbook fails the run; the snapshot in service stays, marked failed', async () => {
    const artifacts = await tempDir('artifacts')
    const build = await tempDir('build')
    const first = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build, states: 'GA,CT', extra: { TAXATLAS_GEO: geo.url } }))
    expect(first.manifest!.geography.inputs['hud/ZIP_COUNTY_032023.xlsx']).toMatch(/^[0-9a-f]{64}$/)

    const signIn = '<!DOCTYPE html><html><head><title>HUD USER | Login</title></head><body><form action="/portal/user/login"></form></body></html>'
    geo.faults.set('/hud/ZIP_COUNTY_032023.xlsx', { kind: 'bytes', bytes: Buffer.from(signIn) })
    const run = await refreshProcess({
      TAXATLAS_MIRROR: inject('mirrorUrl'),
      TAXATLAS_GEO: geo.url,
      TAXATLAS_DROPS: sharedPath('drops'),
      TAXATLAS_ARTIFACTS: artifacts,
      TAXATLAS_BUILD: build,
      TAXATLAS_STATES: 'GA,CT',
      TAXATLAS_NOW: '2026-11-22T03:00:00.000Z',
    })
    geo.faults.clear()
    expect(run.exitCode, run.stderr).toBe(1)
    expect(run.stderr, run.stderr).toMatch(/republished snapshot/)
    expect(run.stderr).toMatch(/ZIP_COUNTY_032023\.xlsx: the server answered an HTML page \("HUD USER \| Login"\) in place of the file/)
    const current = (await readCurrentId(artifacts))!
    expect(current).not.toBe(first.manifest!.snapshot)
    const republished = await loadSnapshot(artifacts, current)
    const before = await loadSnapshot(artifacts, first.manifest!.snapshot)
    expect(republished.files['rates.bin'].equals(before.files['rates.bin'])).toBe(true)
    const ga = republished.manifest.states.find((s) => s.code === 'GA')!
    expect(ga.status).toBe('failed')
    expect(ga.notes[0]).toMatch(/^refresh run failed, previous data kept: .*HUD USER \| Login/)
    expect(ga.last_refreshed_at).toBe(first.manifest!.states.find((s) => s.code === 'GA')!.last_refreshed_at)
    expect(republished.manifest.states.find((s) => s.code === 'CT')!.status).toBe('static')
    // a state the run was not asked to refresh keeps its record
    expect(republished.manifest.states.find((s) => s.code === 'WI')!.status).toBe('unknown')
  })
})
