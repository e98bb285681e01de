// The drop editions held become history layers of every snapshot: each edition's window runs from
// its month to the day before the next edition held for the state, the edition in service is not
// repeated, an unchanged run carries the layers byte for byte, and a drop taken away is history no
// more. Real refreshes over the HTTP mirror with the real drops.
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { Manifest } from '../snapshot-contract/manifest.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { readSnapshotFile } from '../snapshot-contract/snapshot-store.ts'
import { avalaraRows, dropCombined } from './support/lookup-snapshots.ts'
import { heldDrops } from './support/held-drops.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { tempDir } from './support/temp-dirs.ts'

const run = async (artifacts: string, now: string, drops?: string) =>
  (await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build: await tempDir('build'), states: 'IA,IL', now, ...(drops ? { drops } : {}) }))).manifest!

const layerOf = (manifest: Manifest, edition: string) => manifest.history.find((layer) => layer.edition === edition)
const indexOf = async (artifacts: string, manifest: Manifest, edition: string) => new RateIndex(await readSnapshotFile(artifacts, manifest.snapshot, layerOf(manifest, edition)!.file))

describe('history layers', () => {
  let artifacts: string
  let first: Manifest
  beforeAll(async () => {
    artifacts = await tempDir('artifacts')
    first = await run(artifacts, '2026-11-21T03:00:00.000Z', await heldDrops('IA,IL', { editions: ['201804', '201911', '202512'] }))
  })

  it('hold every edition but the one in service, each windowed until the next edition of the state', async () => {
    expect(first.history.map((l) => l.edition)).toEqual(['202512', '201911', '201804'])
    // IA is served from its 202512 drop: not repeated; IL is served from ordmache: its 202512 drop is history
    expect(layerOf(first, '202512')!.states.map((s) => s.code)).toEqual(['IL'])
    expect(layerOf(first, '201911')!.states.map((s) => s.code).sort()).toEqual(['IA', 'IL'])
    const windows = async (edition: string) => (await indexOf(artifacts, first, edition)).authoritiesOfState('IA').filter((a) => a.level === 'state').map((a) => [a.from, a.to])
    expect(await windows('201804')).toEqual([['2018-04-01', '2019-10-31']])
    expect(await windows('201911')).toEqual([['2019-11-01', '2025-11-30']])
    const record = layerOf(first, '201804')!.states.find((s) => s.code === 'IA')!
    expect(record).toMatchObject({ feed: 'avalara-zip5', klass: 'reload', status: 'manual', edition: '201804', effective_through: '2018-04-01' })
  })

  it('answer each ZIP as its edition\'s row', async () => {
    const rows = await avalaraRows('IA', '201804')
    const index = await indexOf(artifacts, first, '201804')
    const entry = index.lookupZip('50309').find((e) => e.state === 'IA')!
    expect(index.combinedRate(entry.candidates[0]!.stack, '2019-01-01')).toBe(dropCombined(rows.get('50309')!))
    expect(index.combinedRate(entry.candidates[0]!.stack, '2019-11-01')).toBe(0)
  })

  it('an unchanged run carries the layers over byte for byte', async () => {
    const again = await run(artifacts, '2026-11-22T03:00:00.000Z', await heldDrops('IA,IL', { editions: ['201804', '201911', '202512'] }))
    expect(again.history.map((l) => l.file)).toEqual(first.history.map((l) => l.file))
    expect(again.history_keys).toEqual(first.history_keys)
  })

  it('a drop edition taken away is history no more; the editions left keep their windows', async () => {
    const later = await run(artifacts, '2026-11-23T03:00:00.000Z', await heldDrops('IA,IL', { editions: ['201911', '202512'] }))
    expect(later.history.map((l) => l.edition)).toEqual(['202512', '201911'])
    const windows = (await indexOf(artifacts, later, '201911')).authoritiesOfState('IA').filter((a) => a.level === 'state').map((a) => [a.from, a.to])
    expect(windows).toEqual([['2019-11-01', '2025-11-30']])
    expect(later.history_keys.IA).not.toBe(first.history_keys.IA)
  })
})
