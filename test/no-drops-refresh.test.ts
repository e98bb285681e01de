// The aggregator is optional: a refresh with no manual drop at all (a new user's first run) serves
// every one of the 52 jurisdictions from an official file or a statute, none `failed: no data`; a
// state none of whose sources serves falls to its statutory floor, stale, and its answers say which
// local taxes they leave out. Where a drop is held it is a cross-check of the statute or official
// file in service, never preferred to it.
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { feedTraits } from '../snapshot-contract/feed-traits.ts'
import type { Manifest, StateRecord } from '../snapshot-contract/manifest.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { loadSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { STATES } from '../sources/index.ts'
import { heldDrops } from './support/held-drops.ts'
import { warningCodes } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { tempDir } from './support/temp-dirs.ts'

const NOW = '2026-11-21T03:00:00.000Z'
const record = (manifest: Manifest, code: string): StateRecord => manifest.states.find((s) => s.code === code)!

describe('a first refresh with no drops', () => {
  let manifest: Manifest
  let index: RateIndex
  let lookup: LookupServer
  beforeAll(async () => {
    const artifacts = await tempDir('no-drops-artifacts')
    const drops = path.join(await tempDir('no-drops'), 'empty')
    await mkdir(drops)
    const run = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build: await tempDir('no-drops-build'), drops, now: NOW }))
    if (!run.manifest) throw new Error(`snapshot not published: ${run.reason}`)
    manifest = run.manifest
    index = new RateIndex((await loadSnapshot(artifacts, manifest.snapshot)).files['rates.bin'])
    lookup = await startLookupServer({ dir: artifacts })
  }, 600_000)
  afterAll(async () => {
    await lookup?.close()
  })

  it('serves all 52 jurisdictions, each from an official file or a statute: none failed, none without data', () => {
    expect(manifest.states.map((s) => s.code)).toEqual(STATES.map((d) => d.code))
    expect(manifest.states).toHaveLength(52)
    for (const state of manifest.states) {
      expect(index.states, state.code).toContain(state.code)
      expect(['failed', 'anchor_regression', 'unknown'], `${state.code}: ${state.notes[0]}`).not.toContain(state.status)
      expect(feedTraits(state.feed).sourceKind, state.code).not.toBe('aggregator')
      expect(state.notes.join('\n'), state.code).not.toMatch(/no data/)
    }
  })

  it('serves the official files the mirror holds (GA, MN, WI, CA, IL) and the statute tables (PA, HI, MS, ID, PR) as always', () => {
    for (const code of ['GA', 'MN', 'WI']) expect(record(manifest, code)).toMatchObject({ feed: 'sst', status: 'ok' })
    expect(record(manifest, 'CA')).toMatchObject({ feed: 'cdtfa', status: 'ok' })
    expect(record(manifest, 'IL').feed).toBe('idor-ordmache')
    for (const code of ['PA', 'HI', 'MS', 'ID', 'PR']) expect(record(manifest, code)).toMatchObject({ feed: 'statute-table', status: 'static', fallback_reason: null })
  })

  it('puts a state none of whose sources serves on its statutory floor: stale, saying why and what it leaves out', () => {
    // The mirror holds no Arkansas SST file: the floor serves.
    const ar = record(manifest, 'AR')
    expect(ar).toMatchObject({ feed: 'statute-table', klass: 'static', status: 'stale' })
    expect(ar.fallback_reason).toMatch(/^sst has no file: .*avalara-zip5 has no file: no manual drop for AR/)
    expect(ar.notes.join('\n')).toMatch(/statutory floor: the state rate only; Arkansas local sales taxes are not included/)
    expect(ar.rate_varies).toEqual([expect.objectContaining({ kind: 'unpublished', lower_bound: true, exact_source: 'Arkansas DFA + SST quarterly rate/boundary files' })])
  })

  it('answers a floor state\'s ZIP with its state rate, a warning naming the taxes left out and who has them, and low confidence', async () => {
    const response = await lookup.get(`/v1/tax/ar?zip=72201&as_of=2026-11-21`)
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    const { rate, meta } = response.body
    expect(rate.combined_rate).toBe('0.06500')
    expect(meta.confidence).toBe('low')
    expect(warningCodes(meta.warnings)).toEqual(expect.arrayContaining(['feed_fallback', 'state_data_status', 'local_tax_not_included']))
    const notIncluded = meta.warnings.find((w: { code?: string }) => w.code === 'local_tax_not_included')
    expect(notIncluded.message).toMatch(/Arkansas local sales taxes are not included/)
    expect(notIncluded.exact_source).toBe('Arkansas DFA + SST quarterly rate/boundary files')
  })

  it('still answers a statewide statute (CT) exactly, and an official file (GA) at high confidence with no floor warning', async () => {
    const ct = await lookup.get('/v1/tax/ct?zip=06103')
    expect(ct.body.meta.confidence).toBe('exact')
    const ga = await lookup.get('/v1/tax/ga?zip=30303&as_of=2026-11-21')
    expect(warningCodes(ga.body.meta.warnings)).not.toContain('local_tax_not_included')
    expect(ga.body.rate.combined_rate).toBe('0.08900')
  })
})

describe('a drop held beside a statute table or an official file', () => {
  let manifest: Manifest
  beforeAll(async () => {
    const run = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts: await tempDir('cross-artifacts'), build: await tempDir('cross-build'), drops: await heldDrops('PA,GA', { editions: ['202512'] }), states: 'PA,GA', now: NOW }))
    if (!run.manifest) throw new Error(`snapshot not published: ${run.reason}`)
    manifest = run.manifest
  }, 600_000)

  it('is a cross-check: the statute or the official file serves, and the notes give the comparison with the drop', () => {
    for (const [code, feed, kind] of [['PA', 'statute-table', 'statute'], ['GA', 'sst', 'official']] as const) {
      const state = record(manifest, code)
      expect(state.feed, code).toBe(feed)
      const note = state.notes.find((n) => n.startsWith('cross-check with the aggregator drop'))
      expect(note, code).toMatch(new RegExp(`^cross-check with the aggregator drop \\(never preferred to ${feed}\\): .*against aggregator edition 202512 on 2026-11-21: \\d+ of \\d+ ZIPs disagree \\(\\d+\\.\\d%\\)`))
      // Georgia's rates moved between the December 2025 drop and its 2026 Q2 file (docs/audit.md).
      if (code === 'GA') expect(note).toMatch(new RegExp(`e\\.g\\. \\d{5} ${kind} \\d+ vs aggregator \\d+`))
    }
  })
})
