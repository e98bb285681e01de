// Florida end to end: the surtax workbook built from its documented layout, discovered on a mirror
// served over loopback HTTP (<mirror>/fl-dor-surtax/), accepted by the operator over the
// aggregator, published, and served: TaxJar's POST /v2/taxes taxes the surtax only on the first
// $5,000 of each item (Fla. Stat. 212.054(2)(b)), in exact cents.
import { rm } from 'node:fs/promises'
import Taxjar from 'taxjar'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { loadSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { LOCAL_TAX_ITEM_CAPS } from '../sources/state-facts.ts'
import { TaxjarTaxBody } from '../server/taxjar/taxjar-tax-body.ts'
import { flSurtaxWorkbook } from './support/fl-surtax-fixture.ts'
import { heldDrops } from './support/held-drops.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { pipelineSettings, runRefresh, tempDir } from './support/refresh-run.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { serveTempMirror, type TempMirror } from './support/temp-mirror.ts'

const NOW = '2026-11-21T03:00:00.000Z'
const ZIP = '33401'
let mirror: TempMirror
let lookup: LookupServer
let artifacts: string
let build: string

beforeAll(async () => {
  const geography = await loadMiniGeography(['FL'])
  const counties = [...geography.counties.values()].filter((c) => c.state === 'FL').map((c) => c.name.toUpperCase())
  mirror = await serveTempMirror({ 'fl-dor-surtax/DiscretionarySalesSurtaxRates.xlsx': await flSurtaxWorkbook({ counties }) })
  artifacts = await tempDir('fl-artifacts')
  build = await tempDir('fl-build')
}, 60_000)
afterAll(async () => {
  await lookup?.close()
  await mirror?.close()
  for (const dir of [artifacts, build]) if (dir) await rm(dir, { recursive: true, force: true })
})

describe('Florida served from the surtax workbook', () => {
  let state = 0
  let surtax = 0
  it('is published once the operator accepts it over the aggregator, its anchors held', async () => {
    const result = await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, build, drops: await heldDrops('FL'), states: 'FL', now: NOW, extra: { TAXATLAS_ACCEPT_OFFICIAL: 'FL' } }))
    const record = result.states.find((s) => s.code === 'FL')!
    expect(record.feed).toBe('fl-dor-surtax')
    expect(record.official_trial).toMatchObject({ accepted: true })
    expect(record.anchors.filter((a) => a.outcome === 'held').map((a) => a.zip).sort()).toEqual(['33401', '34102'])
    const index = new RateIndex((await loadSnapshot(artifacts, result.manifest!.snapshot)).files['rates.bin'])
    const entry = index.lookupZip(ZIP).find((e) => e.state === 'FL')!
    for (const authority of index.authoritiesOn(entry.candidates[0]!.stack, NOW.slice(0, 10))) {
      if (authority.level === 'state') state += authority.rate
      else surtax += authority.rate
    }
    expect(state + surtax).toBe(defaultCombinedRate(index, ZIP, 'FL', NOW.slice(0, 10)))
    expect(surtax).toBeGreaterThan(0)
  }, 400_000)

  it('taxes the surtax only on the first $5,000 of each item through POST /v2/taxes, in exact cents', async () => {
    lookup = await startLookupServer({ dir: artifacts })
    const client = new Taxjar({ apiKey: lookup.key, apiUrl: `${lookup.server.url}/taxjar` })
    const { tax } = await client.taxForOrder({
      to_country: 'US', to_zip: ZIP, to_state: 'FL', shipping: 0,
      nexus_addresses: [{ country: 'US', state: 'FL' }],
      line_items: [{ id: '1', quantity: 1, unit_price: 8000 }, { id: '2', quantity: 2, unit_price: 6000 }, { id: '3', quantity: 1, unit_price: 120 }],
    } as never)
    const body = TaxjarTaxBody.strict().parse({ tax }).tax
    const capCents = LOCAL_TAX_ITEM_CAPS.FL!.dollars * 100
    // One rounding per line, half up: (price × state rate + min(price, cap × quantity) × surtax) / 1e5.
    const lineCents = (cents: number, quantity: number) => Number((BigInt(cents) * BigInt(state) * 2n + BigInt(Math.min(cents, capCents * quantity)) * BigInt(surtax) * 2n + 100_000n) / 200_000n)
    const expected = [lineCents(800_000, 1), lineCents(1_200_000, 2), lineCents(12_000, 1)]
    expect(body.breakdown!.line_items.map((l) => Math.round(l.tax_collectable * 100))).toEqual(expected)
    expect(Math.round(body.amount_to_collect * 100)).toBe(expected.reduce((a, b) => a + b, 0))
    const first = body.breakdown!.line_items[0]!
    expect(first.state_taxable_amount).toBe(8000)
    expect(first.county_taxable_amount).toBe(5000)
    // Uncapped, the first line would owe more: the cap changed the answer.
    expect(Math.round(first.tax_collectable * 100)).toBeLessThan(Number((800_000n * BigInt(state + surtax) * 2n + 100_000n) / 200_000n))
  }, 120_000)
})
