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
import { expectAnchorsHold, stateIndex, zipsWholly } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import { totalWrittenAsPercent, VA_HEADER, VA_REGION_OF, vaRateWorkbook, type VaLocalityRow } from './support/va-rate-fixture.ts'

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
const EDITION = '2026-11-21'
const compile = async (rows = localities) => compileVaRates({ workbook: await parse(rows), stateRate: STATE_RATE, geography, edition: EDITION })
const edited = (fips: string, cells: VaLocalityRow['cells']) => localities.map((l) => (l.fips === fips ? { ...l, cells } : l))
/** The sheet row of a locality: two title rows and the header on row 3, the localities below in the fixture's order. */
const rowOf = (locality: VaLocalityRow) => localities.indexOf(locality) + 4

describe('reading the rate workbook', () => {
  it('reads every locality below the header on row 3, and below a header moved further down alike', async () => {
    const workbook = await parse()
    expect(workbook.localities).toHaveLength(localities.length)
    expect((await parse(localities, { titleRows: 4 })).localities).toEqual(workbook.localities.map((l) => ({ ...l, row: l.row + 2 })))
    expect(workbook.localities.find((l) => l.fips === '830')).toMatchObject({ state: STATE_RATE, local: 1000, regions: { HR: 700, HT: 1000 } })
  })

  it('refuses a workbook lacking a column; sets aside a percent where a fraction is expected and parts that do not add up to the total, naming their rows', async () => {
    await expect(parse(localities, { header: VA_HEADER.filter((h) => h !== 'State Regional Sales Tax (HT)') })).rejects.toThrow(/row 3 comes closest and lacks State Regional Sales Tax \(HT\)/)
    expect((await parse(edited('760', { 'Total General Sales Tax': 6 }))).setAside.notes()[0]).toMatch(/1 row\(s\) set aside.*Total General Sales Tax 6 is not a fraction: a percent where a fraction is expected/)
    expect((await parse(edited('760', { 'State Regional Sales Tax (CVA)': 0 }))).setAside.notes()[0]).toMatch(/its parts add up to 0\.05300, its Total General Sales Tax says 0\.06000/)
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

  it('the evidence\'s totals as percents (5.3 where 0.053 stands) in one locality\'s row: that row set aside and named, the locality answering the state rate with the row counted as left out, every other locality served', async () => {
    // a locality of no regional tax, with a ZIP wholly in it, other than the anchors' (Williamsburg, James City, Richmond, Staunton)
    const whole = compileVaRates({ workbook: await parse(), stateRate: STATE_RATE, geography, edition: EDITION })
    const odd = localities.find((l) => !VA_REGION_OF[l.fips] && zipsWholly(whole, `51${l.fips}`, null).length > 0 && !['790', '015'].includes(l.fips))!
    const result = await compile(localities.map((l) => (l === odd ? totalWrittenAsPercent(l) : l)))
    expect(result.notes).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (row ${rowOf(odd)}: ${odd.name}: Total General Sales Tax 5.3 is not a fraction: a percent where a fraction is expected?)`)
    expect(result.notes).toContain(`1 Virginia localities have no layer of their own, the rows rating them set aside (${odd.name} (51${odd.fips})): outside any place rated apart, the state's layer alone answers there`)
    expect(result.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 1 })])
    expect({ rowsRead: result.rowsRead, rowsParsed: result.rowsParsed }).toEqual({ rowsRead: localities.length, rowsParsed: localities.length - 1 })
    expect(result.jurisdictions.filter((j) => j.level === 'county' && j.code === odd.fips)).toEqual([])
    expect(expectAnchorsHold(VA, 'va-tax', result)).toBeGreaterThan(0)
    const index = stateIndex('VA', result)
    expect(defaultCombinedRate(index, '23219', 'VA', EDITION)).toBe(6000)
    expect(defaultCombinedRate(index, '24401', 'VA', EDITION)).toBe(5300)
    const zips = zipsWholly(result, `51${odd.fips}`, null)
    expect(zips.length).toBeGreaterThan(0)
    for (const zip of zips) expect(defaultCombinedRate(index, zip, 'VA', EDITION)).toBe(STATE_RATE)
  })

  it('sets aside a row whose FIPS code binds to no locality, and one printing another state rate, each named; refuses a workbook missing a locality no row names', async () => {
    const atlantis = await compile([...localities, { fips: '999', name: 'Atlantis' }])
    expect(atlantis.notes).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (row ${localities.length + 4}: FIPS 51999 (Atlantis) is no Virginia county or city of the geography)`)
    const [first] = localities
    const stateRate = await compile(localities.map((l) => (l === first ? { ...l, cells: { 'State General Sales Tax': 0.053, 'Local Sales Tax': 0, 'Total General Sales Tax': 0.053 + (VA_REGION_OF[l.fips]?.NVA ?? 0) } } : l)))
    expect(stateRate.notes.join(' ')).toContain(`row ${rowOf(first!)}: ${first!.name} prints the state rate 0.05300, the rules table says 0.04300`)
    expect(stateRate.notes).toContain(`1 Virginia localities have no layer of their own, the rows rating them set aside (${first!.name} (51${first!.fips})): outside any place rated apart, the state's layer alone answers there`)
    await expect(compile(localities.slice(1))).rejects.toThrow(new RegExp(`1 of ${localities.length} Virginia localities of the geography not listed \\(${first!.name} \\(51${first!.fips}\\)\\): the file is incomplete`))
  })

  it('fails the file past the share a file may set aside: every total a percent (a unit change), and a seventh odd row of 133', async () => {
    await expect(parse(localities.map(totalWrittenAsPercent))).rejects.toThrow(new RegExp(`^${FILE}: ${localities.length} of ${localities.length} rows set aside, more than 5% \\(6\\): its layout or units changed\\?`))
    const odd = (n: number) => localities.map((l, i) => (i < n ? totalWrittenAsPercent(l) : l))
    expect((await compile(odd(6))).leftOut).toEqual([expect.objectContaining({ count: 6 })])
    await expect(parse(odd(7))).rejects.toThrow(/7 of 133 rows set aside, more than 5% \(6\)/)
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
