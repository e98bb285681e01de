// Colorado end to end: the DR 1002 workbook built from its documented layout, found on a mirror
// served over loopback HTTP (<mirror>/co-dor/, the rates page beside it), refreshed with the real
// geography and the real aggregator drop. A workbook that cannot be read fails the official feed with
// its reason and the aggregator keeps serving; a good one serves once the operator accepts it, the
// answer naming its feed, edition and file.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { loadSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { CO_STATE, coRateWorkbook, coRows, DENVER_CITY } from './support/co-rate-fixture.ts'
import { heldDrops } from './support/held-drops.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { pipelineSettings, runRefresh, tempDir } from './support/refresh-run.ts'
import { serveTempMirror, type TempMirror } from './support/temp-mirror.ts'

const NOW = '2026-11-21T03:00:00.000Z'
const FILE = 'Colorado_Jurisdiction_Codes_Rates_July-Dec2026.xlsx'
const PAGE = `<!DOCTYPE html><html><head><title>How to Look Up Sales &amp; Use Tax Rates</title></head><body><a href="/sites/tax/files/documents/${FILE}">DR 1002 Colorado Sales/Use Tax Rates: July to December 2026</a></body></html>`
const DENVER_ZIP = '80202'
// A refresh builds the whole geography: slow on a busy machine.
const REFRESH_TIMEOUT = 400_000
let mirror: TempMirror
let rows: ReturnType<typeof coRows>
const dirs: string[] = []

beforeAll(async () => {
  const geography = await loadMiniGeography(['CO'])
  rows = coRows([...geography.counties.values()].filter((c) => c.state === 'CO'))
  mirror = await serveTempMirror({})
}, 60_000)
afterAll(async () => {
  await mirror?.close()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function run(extra: Record<string, string> = {}) {
  const [artifacts, build] = [await tempDir('co-artifacts'), await tempDir('co-build')]
  dirs.push(artifacts, build)
  const result = await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, build, drops: await heldDrops('CO'), states: 'CO', now: NOW, extra }))
  const record = result.states.find((s) => s.code === 'CO')!
  const index = result.manifest ? new RateIndex((await loadSnapshot(artifacts, result.manifest.snapshot)).files['rates.bin']) : null
  return { record, denver: index ? defaultCombinedRate(index, DENVER_ZIP, 'CO', NOW.slice(0, 10)) : null }
}

describe('Colorado from the DR 1002 workbook, on trial against the aggregator', () => {
  it('keeps the aggregator in service when the workbook\'s rates fit no unit of the state rate (each a hundred times its percent), the reason in the official feed\'s note', async () => {
    const hundredfold = rows.map((r) => ({ ...r, taxes: r.taxes.map((t) => ({ ...t, rate: t.rate * 100 })) }))
    await mirror.publish({ 'co-dor/sales-use-tax-rates.html': PAGE, [`co-dor/${FILE}`]: await coRateWorkbook(hundredfold) })
    const { record, denver } = await run({ TAXATLAS_ACCEPT_OFFICIAL: 'CO' })
    expect(record.feed).toBe('avalara-zip5')
    const attempt = record.feeds_tried.find((a) => a.feed === 'co-dor')!
    expect(attempt.outcome).toBe('failed')
    expect(attempt.message).toMatch(/the unit of its rates cannot be decided: of \d+ figures \(290, .*0 read as percents and 0 as fractions where one reads as the 0\.02900 state rate/)
    expect(denver).toBe(9150)
  }, REFRESH_TIMEOUT)

  it('serves the workbook once the operator accepts it, naming its feed, edition and file', async () => {
    await mirror.publish({ 'co-dor/sales-use-tax-rates.html': PAGE, [`co-dor/${FILE}`]: await coRateWorkbook(rows) })
    const { record, denver } = await run({ TAXATLAS_ACCEPT_OFFICIAL: 'CO' })
    expect(record.feed).toBe('co-dor')
    expect(record.edition).toBe('2026-07-01')
    expect(record.sources.map((s) => s.name)).toContain(FILE)
    expect(record.official_trial).toMatchObject({ aggregator_edition: '202512', accepted: true })
    expect(denver).toBe(Math.round((CO_STATE + DENVER_CITY + 1.1) * 1000))
  }, REFRESH_TIMEOUT)
})
