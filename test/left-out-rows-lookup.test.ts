// E7 end to end: a Kansas SST rate file holding type-79 rows (whose meaning is not decoded, expired
// ones included; publisher-evidence E7, A.5) refreshed from a mirror served over HTTP, then answered
// by a real server. The decoded layers serve; every answer says how many rows were left out and of
// what kind, counting those in force on its date, at lowered confidence; the freshness record counts them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadMiniGeography } from './support/mini-geography.ts'
import { KS_TYPE_79_IN_FORCE, ksRateFileE7 } from './support/sst-e7-fixture.ts'
import { simpleLookup, warningCodes, warningOf } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { tempDir } from './support/temp-dirs.ts'
import { serveTempMirror, type TempMirror } from './support/temp-mirror.ts'

const FILE = 'KSR2026Q4AUG19.csv'
const WICHITA_ZIP = '67202'

let mirror: TempMirror
let lookup: LookupServer

beforeAll(async () => {
  const geography = await loadMiniGeography(['KS'])
  // type 79: one in force throughout, one from the quarter's first day, one that ended years ago
  const counties = [...geography.counties.values()].filter((c) => c.state === 'KS').map((c) => c.fips.slice(2))
  mirror = await serveTempMirror({ [`sst/${FILE}`]: ksRateFileE7(counties) })
  const artifacts = await tempDir('left-out-artifacts')
  const run = await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, build: await tempDir('left-out-build'), drops: await tempDir('left-out-no-drops'), states: 'KS' }))
  if (!run.manifest) throw new Error(`no snapshot: ${run.reason}`)
  lookup = await startLookupServer({ dir: artifacts })
}, 300_000)
afterAll(async () => {
  await lookup?.close()
  await mirror?.close()
})

describe('a state whose file had rows of an undecoded type left out', () => {
  it('answers the decoded layers, with rows_left_out naming the kind and the count in force, at medium confidence', async () => {
    const body = await simpleLookup(lookup, `/v1/tax/ks?zip=${WICHITA_ZIP}`)
    expect(body.rate.combined_rate).toBe('0.08500')
    expect(body.meta.confidence).toBe('medium')
    const warning = warningOf(body.meta.warnings, 'rows_left_out')
    expect(warning).toMatchObject({ count: KS_TYPE_79_IN_FORCE, kinds: [{ kind: 'type-79 rows (meaning not decoded)', count: KS_TYPE_79_IN_FORCE, reason: expect.stringMatching(/not decoded/) }] })
    expect(warning.message).toMatch(/^2 rows of the KS file in service were left out of every answer: 2 type-79 rows \(meaning not decoded\)/)
  })

  it('counts only the rows in force on the date asked: one before the quarter the second starts in', async () => {
    const body = await simpleLookup(lookup, `/v1/tax/ks?zip=${WICHITA_ZIP}&as_of=2026-07-15`)
    expect(warningOf(body.meta.warnings, 'rows_left_out')).toMatchObject({ count: 1, kinds: [{ count: 1 }] })
    const before = await simpleLookup(lookup, `/v1/tax/ks?zip=${WICHITA_ZIP}&as_of=2018-07-15`)
    expect(warningCodes(before.meta.warnings)).not.toContain('rows_left_out')
  })

  it('the freshness record counts the rows left out (the expired one never)', async () => {
    const response = await lookup.get('/v1/freshness')
    expect(response.body.states.find((s: { code: string }) => s.code === 'ks')).toMatchObject({ feed: 'sst', left_out_rows: KS_TYPE_79_IN_FORCE })
  })
})
