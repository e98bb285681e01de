// Feeds in order of preference, through real refreshes over an HTTP mirror of ../shared/mirror:
// GA, MN and WI are served by their SST files; SST members with no file named fall back to the
// drop (IA, NC) or the statute (KY); an SST file that fails makes the drop serve on a first run,
// never as `ok`, and keeps the previous SST data on a later one.
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Listings } from '../pipeline/fetch/source-listing.ts'
import { loadFeed } from '../pipeline/run/load-state.ts'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import { freshnessEnvelope, type Manifest, type StateRecord } from '../snapshot-contract/manifest.ts'
import { stateByCode } from '../sources/index.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { heldDrops } from './support/held-drops.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const STATES = 'GA,MN,WI,IA,NC,KY'
const GA_FILE = '/sst/GAR2026Q2FEB19.csv'
// The 202512 drops are 14 days old then: a drop that serves in its own right is `ok`.
const DROP_IS_FRESH = '2025-12-15T03:00:00.000Z'
const record = (manifest: Manifest, code: string) => manifest.states.find((s) => s.code === code) as StateRecord

let mirror: FaultMirror
beforeAll(async () => {
  mirror = await startFaultMirror()
})
afterAll(() => mirror.close())

const refresh = async (artifacts: string, now: string) =>
  (await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, build: await tempDir('build'), drops: await heldDrops(STATES), states: STATES, now }))).manifest!

describe('SST members on the SST feed, with fallback', () => {
  let first: Manifest
  beforeAll(async () => {
    first = await refresh(await tempDir('artifacts'), DROP_IS_FRESH)
  })

  it('GA, MN and WI are served by their SST files', () => {
    for (const code of ['GA', 'MN', 'WI']) {
      expect(record(first, code), code).toMatchObject({ feed: 'sst', klass: 'auto', status: 'ok', fallback_reason: null, feeds_tried: [{ feed: 'sst', outcome: 'served' }] })
    }
  })

  it('an SST member with no rate file named falls back to its drop, in its own right: the drop\'s status, and the reason recorded', () => {
    for (const code of ['IA', 'NC']) {
      const state = record(first, code)
      expect(state, code).toMatchObject({ feed: 'avalara-zip5', klass: 'reload', status: 'ok', edition: '202512' })
      expect(state.feeds_tried.map((a) => [a.feed, a.outcome])).toEqual([
        ['sst', 'no_file'],
        ['avalara-zip5', 'served'],
      ])
      expect(state.fallback_reason).toBe(`sst has no file: index page ${mirror.url}/sst/ lists no rate file for ${code} (3 SST files of other states)`)
      expect(state.notes[0]).toBe(`served by avalara-zip5, a fallback: ${state.fallback_reason}`)
    }
  })

  it('a single-rate SST member with no file named falls back to its statute', () => {
    expect(record(first, 'KY')).toMatchObject({ feed: 'statutory', klass: 'static', status: 'static', fallback_reason: expect.stringMatching(/^sst has no file/) })
  })

  it('the freshness record names the feed in service and why', () => {
    const envelope = freshnessEnvelope(first)
    expect(envelope.states.find((s) => s.code === 'ga')).toMatchObject({ feed: 'sst', fallback_reason: null })
    expect(envelope.states.find((s) => s.code === 'ia')).toMatchObject({ feed: 'avalara-zip5', fallback_reason: record(first, 'IA').fallback_reason })
  })
})

describe('an official feed that fails', () => {
  it('on a first run the drop serves, never as ok, with the failure recorded; the SST anchors are not held against the drop', async () => {
    mirror.faults.set(GA_FILE, { kind: 'status', status: 404 })
    const manifest = await refresh(await tempDir('artifacts'), DROP_IS_FRESH)
    mirror.faults.clear()
    const ga = record(manifest, 'GA')
    expect(ga).toMatchObject({ feed: 'avalara-zip5', edition: '202512', status: 'stale' })
    expect(ga.feeds_tried.map((a) => [a.feed, a.outcome])).toEqual([
      ['sst', 'failed'],
      ['avalara-zip5', 'served'],
    ])
    expect(ga.fallback_reason).toMatch(/^sst failed: load failed: GAR2026Q2FEB19\.csv: GET .*404/)
    // GA's anchors were read from its SST file: they belong to that feed
    expect(stateByCode('GA')!.anchors.every((a) => a.feed === 'sst')).toBe(true)
    expect(ga.anchors).toEqual([])
    // the same drop, served because IA has no file, is ok
    expect(record(manifest, 'IA').status).toBe('ok')
  })

  it('an SST file listed for the wrong state fails that feed, and the next one serves', async () => {
    const mn = await readFile(sharedPath('mirror/sst/MNR2026Q2FEB18.zip'))
    const { extractMember } = await import('../pipeline/fetch/archive.ts')
    mirror.faults.set(GA_FILE, { kind: 'bytes', bytes: Buffer.from(extractMember(mn, 'MNR2026Q2FEB18.zip').bytes) })
    const manifest = await refresh(await tempDir('artifacts'), DROP_IS_FRESH)
    mirror.faults.clear()
    const ga = record(manifest, 'GA')
    expect(ga).toMatchObject({ feed: 'avalara-zip5', status: 'stale' })
    expect(ga.fallback_reason).toBe('sst failed: load failed: GAR2026Q2FEB19.csv: state FIPS 27 but GA counties in geography start 13')
  })

  it('a pinned name of another state\'s file is refused before anything is fetched', async () => {
    const ga = stateByCode('GA')!
    const settings = pipelineSettings({ mirror: mirror.url, artifacts: await tempDir('art'), build: await tempDir('build'), extra: { TAXATLAS_PIN: 'GA=MNR2026Q2FEB18.zip' } })
    const geography = await buildGeography(sharedPath('geo'), { states: ['GA'] })
    const before = mirror.requests.length
    await expect(loadFeed(ga, ga.feeds[0]!, { settings, geography, listings: new Listings(settings) })).rejects.toThrow('TAXATLAS_PIN names MNR2026Q2FEB18.zip for GA, which none of its feeds (sst, avalara-zip5) publishes')
    expect(mirror.requests.length).toBe(before)
  })

  it('after a good run, a failing SST file keeps the previous SST data rather than falling back', async () => {
    const artifacts = await tempDir('artifacts')
    const good = await refresh(artifacts, '2026-11-21T03:00:00.000Z')
    mirror.faults.set(GA_FILE, { kind: 'status', status: 500 })
    const next = await refresh(artifacts, '2026-11-22T03:00:00.000Z')
    mirror.faults.clear()
    const ga = record(next, 'GA')
    expect(ga).toMatchObject({ feed: 'sst', status: 'failed', edition: record(good, 'GA').edition, data_from_snapshot: good.snapshot })
    expect(ga.notes[0]).toMatch(/^previous sst data kept while sst cannot serve \(avalara-zip5 could\): sst: load failed: GAR2026Q2FEB19\.csv: GET .* 500/)
    expect(ga.feeds_tried.map((a) => a.outcome)).toEqual(['failed', 'served'])
  })

  it('P21 an ordmache file whose duplicate codes disagree fails Illinois, and the previous ordmache data stays in service', async () => {
    const artifacts = await tempDir('artifacts')
    const run = async (now: string) => (await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, build: await tempDir('build'), drops: await heldDrops('IL'), states: 'IL', now }))).manifest!
    const good = await run('2026-11-21T03:00:00.000Z')
    expect(record(good, 'IL')).toMatchObject({ feed: 'idor-ordmache', status: 'ok' })
    const lines = (await readFile(sharedPath('mirror/idor/ordmache-current.txt'), 'utf8')).split('\n')
    const second = lines.map((line, i) => (line.startsWith('100-0001-1') ? i : -1)).filter((i) => i >= 0).at(-1)!
    lines[second] = lines[second]!.slice(0, 69) + '09750' + lines[second]!.slice(74)
    mirror.faults.set('/idor/ordmache-current.txt', { kind: 'bytes', bytes: Buffer.from(lines.join('\n')) })
    const next = await run('2026-11-22T03:00:00.000Z')
    mirror.faults.clear()
    const il = record(next, 'IL')
    expect(il).toMatchObject({ feed: 'idor-ordmache', status: 'failed', data_from_snapshot: good.snapshot })
    expect(il.notes[0]).toMatch(/^previous idor-ordmache data kept while idor-ordmache cannot serve \(avalara-zip5 could\): idor-ordmache: load failed: ordmache-current\.txt: 100-0001-1 is listed on lines \d+ and \d+ with different rates/)
  })
})
