// Texas end to end: taxrates.txt built from its documented layout, discovered on a mirror served
// over loopback HTTP (<mirror>/tx-comptroller/), refreshed with the real geography and the real
// aggregator drop. A new official feed earns its place: held back while it disagrees with the
// aggregator, serving once the operator accepts it. (Bad files are refused at the load: tx-load.test.ts.)
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { StateRecord } from '../snapshot-contract/manifest.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { loadSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { heldDrops } from './support/held-drops.ts'
import { pipelineSettings, runRefresh, tempDir } from './support/refresh-run.ts'
import { serveTempMirror, type TempMirror } from './support/temp-mirror.ts'
import { HARRIS_ESD, NOWHERE, txRateFile } from './support/tx-rate-fixture.ts'

const NOW = '2026-11-21T03:00:00.000Z'
const LATER = '2026-11-21T04:00:00.000Z'
let mirror: TempMirror
const dirs: string[] = []

beforeAll(async () => {
  mirror = await serveTempMirror({ 'tx-comptroller/taxrates.txt': txRateFile() })
})
afterAll(async () => {
  await mirror?.close()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

// A refresh builds the whole geography: slow on a busy machine.
const REFRESH_TIMEOUT = 400_000

async function run(artifacts: string, build: string, now: string, extra: Record<string, string> = {}) {
  const result = await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, build, drops: await heldDrops('TX'), states: 'TX', now, extra }))
  const record = result.states.find((s) => s.code === 'TX')!
  const index = result.manifest ? new RateIndex((await loadSnapshot(artifacts, result.manifest.snapshot)).files['rates.bin']) : null
  return { record, houston: index ? defaultCombinedRate(index, '77002', 'TX', now.slice(0, 10)) : null }
}
const trialAttempt = (record: StateRecord) => record.feeds_tried.find((a) => a.feed === 'tx-comptroller')!

describe('Texas from taxrates.txt, on trial against the aggregator', () => {
  let artifacts: string
  let build: string
  beforeAll(async () => {
    artifacts = await tempDir('tx-artifacts')
    build = await tempDir('tx-build')
    dirs.push(artifacts, build)
  })

  it('holds the official feed back while it disagrees with the aggregator on most ZIPs: the aggregator serves, the comparison in the note', async () => {
    const { record } = await run(artifacts, build, NOW)
    expect(record.feed).toBe('avalara-zip5')
    const attempt = trialAttempt(record)
    expect(attempt.outcome).toBe('failed')
    expect(attempt.message).toMatch(/tx-comptroller on trial held back, the aggregator keeps serving: tx-comptroller 2026Q3 against aggregator edition 202512 on 2026-11-21: \d+ of \d+ ZIPs disagree \(\d+\.\d%, limit 40\.0%\)/)
    expect(attempt.message).toMatch(/TAXATLAS_ACCEPT_OFFICIAL=TX/)
    expect(record.fallback_reason).toContain('on trial held back')
    expect(record.official_trial).toBeNull()
  }, REFRESH_TIMEOUT)

  it('serves the official feed once the operator accepts it, with the comparison in the manifest and its rates by rule', async () => {
    const { record, houston } = await run(artifacts, build, LATER, { TAXATLAS_ACCEPT_OFFICIAL: 'TX' })
    expect(record.feed).toBe('tx-comptroller')
    expect(record.edition).toBe('2026Q3')
    expect(record.sources.map((s) => s.name)).toContain('taxrates.txt')
    expect(record.notes.some((n) => /^edition current: taxrates\.txt: the current rate file linked from/.test(n))).toBe(true)
    expect(record.official_trial).toMatchObject({ aggregator_edition: '202512', accepted: true, limit: 0.4 })
    expect(record.official_trial!.disagreement_share).toBeGreaterThan(0.4)
    expect(record.official_trial!.agreeing).toBeLessThan(record.official_trial!.zips)
    // Houston: 6.25% state + 1% city + 1% transit, Harris County printing no rate of its own.
    expect(houston).toBe(8250)
    expect(record.unplaced.map((u) => u.code)).toEqual(expect.arrayContaining([HARRIS_ESD[1], NOWHERE[1]]))
  }, REFRESH_TIMEOUT)

})

