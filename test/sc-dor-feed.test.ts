// South Carolina from SCDOR's Sales & Use Tax Index page, ST-500 and ST-575, built in their documented
// layouts (support/sc-dor-fixture.ts): the index's dated columns give each county's windows, ST-500
// must agree with it on its effective date, ST-575's rows (wrapped cells read by coordinates, one row
// per county part of a municipality in several counties) give what a municipality adds; compiled
// against the real SC geography with the evidence's pins, and fetched through the publisher replica.
import { beforeAll, describe, expect, it } from 'vitest'
import { SC_FILES } from '../pipeline/feeds/sc-dor/adapter.ts'
import { compileScRates } from '../pipeline/feeds/sc-dor/compile.ts'
import { parseScIndex } from '../pipeline/feeds/sc-dor/index-table.ts'
import { parseSt500 } from '../pipeline/feeds/sc-dor/st500.ts'
import { parseSt575 } from '../pipeline/feeds/sc-dor/st575.ts'
import { loadFeed } from '../pipeline/run/load-state.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import { SC_INDEX_PAGE, SC_ST500_URL, SC_ST575_URL } from '../sources/descriptor.ts'
import SC from '../sources/sc.ts'
import { expectAnchorsHold, stateIndex } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import type { PublisherReplica } from './support/publisher-replica.ts'
import { scIndexPage, st500Pdf, st575Pdf, st575Rows } from './support/sc-dor-fixture.ts'

const NOW = '2026-11-21T03:00:00.000Z'
const bed = feedTestBed('SC', NOW)
let counties: string[]
beforeAll(() => {
  counties = bed.counties.map((c) => c.name).sort()
})

type Parts = { index?: string; st500?: Buffer; st575?: Buffer }
async function parts(given: Parts = {}) {
  return {
    index: parseScIndex(given.index ?? scIndexPage(counties), SC_FILES.index),
    st500: await parseSt500(given.st500 ?? (await st500Pdf(counties)), SC_FILES.st500),
    st575: await parseSt575(given.st575 ?? (await st575Pdf(st575Rows(counties))), SC_FILES.st575),
  }
}
const compile = async (given: Parts = {}) => compileScRates({ ...(await parts(given)), stateRate: 6000, geography: bed.geography })
const anchorsHold = (result: Awaited<ReturnType<typeof compile>>) => expectAnchorsHold(SC, 'sc-dor', result)

describe('reading the three publications', () => {
  it('reads the index\'s dated columns as windows: "Before 5/1/26" through 2026-04-30, "5/1/26 & after" from 2026-05-01, and the Horry–Myrtle Beach line apart', async () => {
    const { index } = await parts()
    expect(index.counties).toHaveLength(46)
    expect(index.counties.find((c) => c.name === 'Williamsburg')!.rates).toEqual([
      { rate: 7000, from: null, to: '2026-04-30' },
      { rate: 8000, from: '2026-05-01', to: null },
    ])
    expect(index.myrtleBeach!.rates.map((r) => r.rate)).toEqual([9000, 9000])
    // The same columns labelled with 4-digit years read to the same days (never 2020 from "5/1/2026").
    const fourDigits = parseScIndex(scIndexPage(counties, { heads: ['Before 5/1/2026', '5/1/2026 &amp; after'] }), SC_FILES.index)
    expect(fourDigits.counties.find((c) => c.name === 'Williamsburg')!.rates).toEqual(index.counties.find((c) => c.name === 'Williamsburg')!.rates)
    expect(() => parseScIndex(scIndexPage(counties, { heads: ['Current', '5/1/26 &amp; after'] }), SC_FILES.index)).toThrow(/rate column "Current" carries no date, so its rates have none/)
  })

  it('reads ST-500\'s effective date, never its revision date', async () => {
    const { st500 } = await parts()
    expect(st500.effective).toBe('2026-05-01')
    await expect(parseSt500(await st500Pdf(counties, { effective: null }), SC_FILES.st500)).rejects.toThrow(/no "Effective <Month D, YYYY>" line, so its totals have no date \(the revision date is not one\)/)
  })

  it('reads ST-575 row by row from the coordinates: a wrapped municipality joins its rates, each county part of Summerville is its own row', async () => {
    const { st575 } = await parts()
    expect(st575.revision).toBe('2026-02-05')
    expect(st575.rows.filter((r) => r.municipality === 'Unincorporated')).toHaveLength(46)
    expect(st575.rows.find((r) => r.municipality === 'North Myrtle Beach')).toMatchObject({ county: 'Horry', total: 8000 })
    expect(st575.rows.filter((r) => r.municipality === 'Summerville').map((r) => [r.county, r.multiCounty])).toEqual([['Berkeley', true], ['Charleston', true], ['Dorchester', true]])
  })

  it('fails an ST-575 with text that belongs to no row, rows lost, or a pair listed twice', async () => {
    await expect(parseSt575(await st575Pdf(st575Rows(counties), { stray: 'Pickens' }), SC_FILES.st575)).rejects.toThrow(/1 piece\(s\) of text belong to no row \(page 1: "Pickens"\)/)
    await expect(parseSt575(await st575Pdf(st575Rows(counties).filter((r) => !(r.municipality === 'Unincorporated' && r.county === 'Aiken'))), SC_FILES.st575)).rejects.toThrow(/45 Unincorporated rows, not one for each of the 46 counties/)
    const rows = st575Rows(counties)
    await expect(parseSt575(await st575Pdf([...rows, rows.find((r) => r.municipality === 'Conway')!]), SC_FILES.st575)).rejects.toThrow(/Conway in Horry listed twice/)
  })
})

describe('compiling South Carolina', () => {
  it('answers the evidence\'s pins: Myrtle Beach 9%, Conway 8%, Greenville 6%, Charleston 9%, Williamsburg 7% then 8% from 2026-05-01', async () => {
    const result = await compile()
    anchorsHold(result)
    // Myrtle Beach (29577, USPS MYRTLE BEACH, bound to the city in this test's ZIP geography; the Census
    // ZCTA→place shares may leave part of that ZCTA to unincorporated Horry, so it is no anchor) at 9%.
    expect(defaultCombinedRate(stateIndex('SC', result), '29577', 'SC', '2026-05-01')).toBe(9000)
    // Only Myrtle Beach adds to its county's total; each of its county parts is one city jurisdiction.
    expect(result.jurisdictions.filter((j) => j.level === 'city').map((j) => [j.name, j.rate])).toEqual([['Myrtle Beach', 1000]])
  })

  it('answers each county part of a municipality in several counties by its own county: Summerville in Dorchester and in Charleston', async () => {
    const index = stateIndex('SC', await compile())
    const [entry] = index.lookupZip('29483')
    const byCounty = new Map(entry!.candidates.map((c) => [c.county!.fips, index.combinedRate(c.stack, '2026-06-01')]))
    expect(byCounty.get('45019')).toBe(9000)
    expect(byCounty.get('45035')).toBe(7000)
  })

  it('fails when ST-500 and the index disagree on its effective date, and a county name that binds to none', async () => {
    await expect(compile({ st500: await st500Pdf(counties, { totals: { Williamsburg: 7 } }) })).rejects.toThrow(/ST500\.pdf \(effective 2026-05-01\) and sales-use-tax-index\.html disagree on 1 county: Williamsburg: 0\.07000 against 0\.08000/)
    const renamed = counties.map((c) => (c === 'Abbeville' ? 'Atlantis' : c))
    await expect(compile({ index: scIndexPage(renamed), st500: await st500Pdf(renamed) })).rejects.toThrow(/Atlantis binds to no South Carolina county of the geography/)
  })
})

describe('fetching them', () => {
  it('loads the three files a mirror holds', async () => {
    await bed.mirror.publish({ [`sc-dor/${SC_FILES.index}`]: scIndexPage(counties), [`sc-dor/${SC_FILES.st500}`]: await st500Pdf(counties), [`sc-dor/${SC_FILES.st575}`]: await st575Pdf(st575Rows(counties)) })
    const result = await loadFeed(SC, SC.feeds[0]!, await bed.context())
    expect(result.edition).toBe('2026-05-01')
    expect(result.files.map((f) => f.name)).toEqual(expect.arrayContaining(Object.values(SC_FILES)))
  })

  it('fetches them at dor.sc.gov through the publisher replica, as production runs, and answers the pins', async () => {
    const serve = async (replica: PublisherReplica) => {
      replica.answer(SC_INDEX_PAGE, { kind: 'page', html: scIndexPage(counties) })
      await replica.serveBytes(SC_ST500_URL, await st500Pdf(counties))
      await replica.serveBytes(SC_ST575_URL, await st575Pdf(st575Rows(counties)))
    }
    const load = await loadFeedAtPublisher('SC', NOW, [new URL(SC_INDEX_PAGE).host], serve)
    const loaded = loadedFeed(load)
    expect(loaded.result.files.filter((f) => f.url.startsWith('https:')).map((f) => f.url)).toEqual([SC_INDEX_PAGE, SC_ST500_URL, SC_ST575_URL])
    anchorsHold(loaded.result)
  }, 120_000)
})
