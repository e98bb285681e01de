// Virginia from Virginia Tax's rate workbook: a workbook built from the documented layout
// (support/va-rate-fixture.ts), parsed by header name and compiled against the real VA geography;
// fetched from a mirror served over loopback HTTP and, as production runs, from www.tax.virginia.gov
// through the publisher replica in a process of its own.
import { beforeAll, describe, expect, it } from 'vitest'
import { NoFileForState } from '../pipeline/fetch/no-file-for-state.ts'
import { parseVaRateWorkbook } from '../pipeline/feeds/va-tax/workbook.ts'
import { compileVaRates } from '../pipeline/feeds/va-tax/compile.ts'
import { fetchStateSources, loadFeed } from '../pipeline/run/load-state.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { VA_RATES_URL } from '../sources/descriptor.ts'
import VA from '../sources/va.ts'
import { stateIndex } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import { VA_HEADER, vaRateWorkbook, type VaLocalityRow } from './support/va-rate-fixture.ts'

const FILE = 'sales-tax-rates.xlsx'
const STATE_RATE = 4300
const NOW = '2026-11-21T03:00:00.000Z'
const bed = feedTestBed('VA', NOW)
let geography: Geography
let localities: VaLocalityRow[]

beforeAll(() => {
  geography = bed.geography
  localities = bed.counties.map((c) => ({ fips: c.fips.slice(2), name: c.name }))
})

const parse = async (rows = localities, options: Parameters<typeof vaRateWorkbook>[1] = {}) => parseVaRateWorkbook(await vaRateWorkbook(rows, options), FILE)
const edited = (fips: string, cells: VaLocalityRow['cells']) => localities.map((l) => (l.fips === fips ? { ...l, cells } : l))

describe('reading the rate workbook', () => {
  it('reads every locality below the header on row 3, and below a header moved further down alike', async () => {
    const workbook = await parse()
    expect(workbook.localities).toHaveLength(localities.length)
    expect((await parse(localities, { titleRows: 4 })).localities).toEqual(workbook.localities.map((l) => ({ ...l, row: l.row + 2 })))
    expect(workbook.localities.find((l) => l.fips === '830')).toMatchObject({ state: STATE_RATE, local: 1000, regions: { HR: 700, HT: 1000 } })
  })

  it('refuses a workbook lacking a column, a percent where a fraction is expected, and parts that do not add up to the total', async () => {
    await expect(parse(localities, { header: VA_HEADER.filter((h) => h !== 'State Regional Sales Tax (HT)') })).rejects.toThrow(/row 3: header lacks State Regional Sales Tax \(HT\)/)
    await expect(parse(edited('760', { 'Total General Sales Tax': 6 }))).rejects.toThrow(/Total General Sales Tax 6 is not a fraction: a percent where a fraction is expected/)
    await expect(parse(edited('760', { 'State Regional Sales Tax (CVA)': 0 }))).rejects.toThrow(/its parts add up to 0\.05300, its Total General Sales Tax says 0\.06000/)
  })
})

describe('compiling Virginia', () => {
  it('answers each ZIP with state, local and its regional taxes: the evidence anchor and the plain 5.3%', async () => {
    const result = compileVaRates({ workbook: await parse(), stateRate: STATE_RATE, geography, edition: '2026-11-21' })
    const index = new RateIndex(writeRateIndex({ states: [{ code: 'VA', result }], zipMeta: () => undefined }))
    for (const anchor of VA.anchors.filter((a) => a.feed === 'va-tax')) expect(defaultCombinedRate(index, anchor.zip, 'VA', anchor.asOf), anchor.source).toBe(Number(anchor.expected.replace('.', '')))
    expect(defaultCombinedRate(index, '23219', 'VA', '2026-11-21')).toBe(6000)
    expect(defaultCombinedRate(index, '24401', 'VA', '2026-11-21')).toBe(5300)
  })

  it('refuses a FIPS code that binds to no locality, and a workbook missing localities', async () => {
    await expect(parse([...localities, { fips: '999', name: 'Atlantis' }]).then((workbook) => compileVaRates({ workbook, stateRate: STATE_RATE, geography, edition: '2026-11-21' }))).rejects.toThrow(/FIPS 51999 \(Atlantis\) is no Virginia county or city/)
    await expect(parse(localities.slice(1)).then((workbook) => compileVaRates({ workbook, stateRate: STATE_RATE, geography, edition: '2026-11-21' }))).rejects.toThrow(/1 Virginia localities of the geography not listed/)
  })
})

describe('fetching the workbook', () => {

  it('loads the file at its fixed name, dated the day it was fetched', async () => {
    await bed.mirror.publish({ [`va-tax/${FILE}`]: await vaRateWorkbook(localities) })
    const result = await loadFeed(VA, VA.feeds[0]!, await bed.context())
    expect(result.edition).toBe('2026-11-21')
    expect(result.effectiveDateBasis).toBe('no_published_date')
  })

  it('has no file, rather than failing, on a mirror that does not carry it; a PDF in its place fails', async () => {
    await bed.mirror.publish({})
    await expect(fetchStateSources(VA, VA.feeds[0]!, await bed.context())).rejects.toBeInstanceOf(NoFileForState)
    await bed.mirror.publish({ [`va-tax/${FILE}`]: '%PDF-1.4\n' })
    await expect(fetchStateSources(VA, VA.feeds[0]!, await bed.context())).rejects.toThrow(/sales-tax-rates\.xlsx: the server answered a PDF document in place of the file/)
  })
})

describe('through the publisher replica, as production runs', () => {
  const HOST = new URL(VA_RATES_URL).host

  it('fetches the workbook at its fixed address on www.tax.virginia.gov through the proxy, and answers the anchors from it', async () => {
    const load = await loadFeedAtPublisher('VA', NOW, [HOST], async (replica) => replica.serveBytes(VA_RATES_URL, await vaRateWorkbook(localities)))
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ edition: 'current', request: { fileName: FILE, officialUrl: VA_RATES_URL } })
    expect(loaded.result).toMatchObject({ edition: '2026-11-21', effectiveDateBasis: 'no_published_date' })
    expect(loaded.result.files.map((f) => f.url).filter((url) => url.startsWith('https:'))).toEqual([VA_RATES_URL])
    const index = stateIndex('VA', loaded.result)
    for (const anchor of VA.anchors.filter((a) => a.feed === 'va-tax')) expect(defaultCombinedRate(index, anchor.zip, 'VA', anchor.asOf), anchor.source).toBe(Number(anchor.expected.replace('.', '')))
    expect(load.tunnels).toContain(HOST)
  }, 120_000)

  it('fails with a note naming the file when a PDF is answered with 200 in its place', async () => {
    const { outcome } = await loadFeedAtPublisher('VA', NOW, [HOST], (replica) => replica.serveBytes(VA_RATES_URL, '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'))
    expect(outcome).toEqual({ error: expect.stringMatching(/sales-tax-rates\.xlsx: the server answered a PDF document in place of the file/) })
  }, 120_000)
})
