// Missouri from DOR's rate chart: a workbook built from the documented layout
// (support/mo-rate-chart-fixture.ts), parsed by header name and compiled against the real MO
// geography; found from the rate-tables pages on a mirror served over loopback HTTP and, as
// production runs, at dor.mo.gov through the publisher replica in a process of its own.
import { beforeAll, describe, expect, it } from 'vitest'
import { parseMoRateChart } from '../pipeline/feeds/mo-dor/rate-chart.ts'
import { compileMoRates } from '../pipeline/feeds/mo-dor/compile.ts'
import { NoFileForState } from '../pipeline/fetch/no-file-for-state.ts'
import { fetchStateSources, loadFeed } from '../pipeline/run/load-state.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { MO_RATE_TABLES_PAGE } from '../sources/descriptor.ts'
import MO from '../sources/mo.ts'
import { stateIndex, units, zipsWholly } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import type { PublisherReplica } from './support/publisher-replica.ts'
import { moRateTablesPageHtml, moYearPageHtml } from './support/publisher-pages.ts'
import { MO_CITIES, MO_COUNTY_PART, MO_HEADER, MO_HEADER_E2, MO_NO_BASE_COUNTIES, MO_STATE, moChartRows, moRateChart, type MoChartOptions, type MoChartRow } from './support/mo-rate-chart-fixture.ts'

const FILE = 'rate-chart.xlsx'
const STATE_RATE = 4225
const NOW = '2026-11-21T03:00:00.000Z'
const bed = feedTestBed('MO', NOW)
let geography: Geography
let rows: MoChartRow[]

beforeAll(() => {
  geography = bed.geography
  rows = moChartRows(bed.counties)
})

const parse = async (chartRows = rows, options: MoChartOptions = {}) => parseMoRateChart(await moRateChart(chartRows, options), FILE, STATE_RATE)
const compile = async (chartRows = rows, options: MoChartOptions = {}) => compileMoRates({ chart: await parse(chartRows, options), stateRate: STATE_RATE, geography, edition: '2026-10-01' })
const indexOf = (result: Awaited<ReturnType<typeof compile>>) => stateIndex('MO', result)

describe('reading the rate chart', () => {
  it('reads codes below the header on row 12, and below a header moved further down alike', async () => {
    const chart = await parse()
    expect(chart.rows).toHaveLength(rows.length)
    expect(chart.rows[0]!.row).toBe(13)
    expect((await parse(rows, { titleRows: 14 })).rows).toEqual(chart.rows.map((r) => ({ ...r, row: r.row + 3 })))
  })

  it('reads rates as % strings and as fractions to the same units', async () => {
    expect((await parse(rows, { form: 'fraction' })).rows).toEqual((await parse()).rows)
    expect((await parse()).rows.find((r) => r.code === '11242-031-000')!.rate).toBe(units(MO_STATE, MO_COUNTY_PART, 2.5))
  })

  it('E2 reads a header with spaces (Jurisdiction Code, AMJ Rate(7004)) found on any of the first 60 rows, text rows between it and the data passed over', async () => {
    const chart = await parse()
    const e2 = await parse(rows, { header: MO_HEADER_E2, titleRows: 40, textRows: ['Rates effective October 1, 2026', 'CITIES AND COUNTIES'] })
    expect(e2.rows).toEqual(chart.rows.map((r) => ({ ...r, row: r.row + 31 })))
    expect(e2.setAside.count).toBe(0)
  })

  it('E2 reads % strings and fractions in one file, and percent numbers alike: the unit of the numbers comes from the state rate every total includes, not from their size', async () => {
    const chart = await parse()
    expect((await parse(rows, { form: 'mixed' })).rows).toEqual(chart.rows)
    expect((await parse(rows, { form: 'percent-number' })).rows).toEqual(chart.rows)
  })

  it('refuses a header moved out of reach or lacking a column, naming the row closest to it', async () => {
    await expect(parse(rows, { titleRows: 65 })).rejects.toThrow(/no header row naming "Jurisdiction Name", "Jurisdiction Code", "SalesTaxRate\(0000\)" in its first 60 rows/)
    await expect(parse(rows, { header: MO_HEADER.filter((h) => h !== 'SalesTaxRate(0000)') })).rejects.toThrow(/row 12 comes closest and lacks SalesTaxRate\(0000\)/)
  })

  it('sets aside a code of another shape and a total below the state rate, naming their rows; fails a chart whose numbers fit neither unit', async () => {
    const odd = [...rows, { name: 'ODD', code: '1124-031-000', rate: 6 }, { name: 'LOW', code: '11242-031-777', rate: 0.057 }]
    const chart = await parse(odd)
    expect(chart.rows).toHaveLength(rows.length)
    expect(chart.setAside.notes()[0]).toMatch(new RegExp(`2 row\\(s\\) set aside.*row ${12 + rows.length + 1}: Jurisdiction Code "1124-031-000" is not NNNNN-CCC-NNN; row ${12 + rows.length + 2}: 11242-031-777: SalesTaxRate\\(0000\\) 0\\.00057 is below the 0\\.04225 state rate`))
    const tiny = rows.map((r) => ({ ...r, rate: r.rate / 1000 }))
    await expect(parse(tiny, { form: 'percent-number' })).rejects.toThrow(/the unit of its rates cannot be decided/)
  })
})

describe('compiling Missouri', () => {
  it('answers a city part with state, county and city; outside cities, state and county', async () => {
    const result = await compile()
    const index = indexOf(result)
    const cape = zipsWholly(result, '29031', '2911242')
    const outside = zipsWholly(result, '29031', null)
    expect(cape.length).toBeGreaterThan(0)
    expect(outside.length).toBeGreaterThan(0)
    for (const zip of cape) expect(defaultCombinedRate(index, zip, 'MO', '2026-11-01')).toBe(units(MO_STATE, MO_COUNTY_PART, 2.5))
    for (const zip of outside) expect(defaultCombinedRate(index, zip, 'MO', '2026-11-01')).toBe(units(MO_STATE, MO_COUNTY_PART))
  })

  it('answers St. Louis, an independent city with no unincorporated row, with state and city alone', async () => {
    const result = await compile()
    const index = indexOf(result)
    const stLouis = zipsWholly(result, '29510', '2965000')
    expect(stLouis.length).toBeGreaterThan(0)
    for (const zip of stLouis) expect(defaultCombinedRate(index, zip, 'MO', '2026-11-01')).toBe(units(MO_STATE, MO_CITIES[1]!.part))
  })

  it('lists overlay districts as unplaced, never summed into a ZIP', async () => {
    const result = await compile()
    const overlays = rows.filter((r) => !r.code.endsWith('-000'))
    expect(result.unplaced.filter((u) => u.level === 'district').map((u) => u.code).sort()).toEqual(overlays.map((r) => r.code).sort())
    expect(result.unplaced.find((u) => u.code === '11242-031-101')).toMatchObject({ rate: 1000, counties: ['29031'], reason: expect.stringMatching(/special district segment 101/) })
    expect(result.candidates.some((c) => c.stack.some((ref) => ref.level === 'district'))).toBe(false)
  })

  it('answers the five counties with no -000 row by the least of their overlays, disclosed as a lower bound', async () => {
    const result = await compile()
    expect(result.rateVaries!.map((v) => v.code).sort()).toEqual([...MO_NO_BASE_COUNTIES].sort())
    expect(result.rateVaries!.every((v) => v.lower_bound && /all its unincorporated land lies in overlays/.test(v.basis))).toBe(true)
    const camden = result.jurisdictions.find((j) => j.level === 'county' && j.code === '029')!
    expect(camden.rate).toBe(units(MO_COUNTY_PART, 0.5))
  })

  it('lists a city code that binds to no place as unplaced; sets aside a county code that binds to no county', async () => {
    const atlantis = { name: 'ATLANTIS', code: '99999-031-000', rate: MO_STATE + MO_COUNTY_PART + 1 }
    const result = await compile([...rows, atlantis])
    expect(result.unplaced.find((u) => u.code === '99999-031')).toMatchObject({ level: 'city', rate: 1000, reason: expect.stringMatching(/binds to no Census place 2999999 nor any named ATLANTIS/) })
    const noCounty = await compile([...rows, { ...atlantis, code: '00000-998-000' }])
    expect(noCounty.notes.join(' ')).toMatch(/1 row\(s\) set aside.*county segment 998 of 00000-998-000 \(ATLANTIS\) binds to no Missouri county/)
    expect(noCounty.leftOut?.[0]).toMatchObject({ kind: 'rows set aside', count: 1 })
  })

  it('refuses a chart missing counties', async () => {
    await expect(compile(rows.filter((r) => !r.code.startsWith('00000-001-')))).rejects.toThrow(new RegExp(`: 1 of ${bed.counties.length} Missouri counties of the geography not listed \\(Adair \\(29001\\)\\): the file is incomplete`))
  })

  it('E2\'s fractions with one county\'s -000 total written as a percent number (5.725 among 0.05725s): that row set aside and named, the county answering the state rate outside cities (never the least of its overlays), every other county and city served', async () => {
    // the fraction form writes rate / 100: a row of 100 × its rate is written as its percent number
    const odd = rows.map((r) => (r.code === '00000-001-000' ? { ...r, rate: r.rate * 100 } : r))
    const result = await compile(odd, { form: 'fraction' })
    const row = 12 + rows.findIndex((r) => r.code === '00000-001-000') + 1
    expect(result.notes).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (row ${row}: 00000-001-000: SalesTaxRate(0000) 5.72500 is 100% or more: no sales tax rate)`)
    expect(result.notes).toContain("1 Missouri counties have no layer of their own, the rows rating them set aside (Adair (29001)): outside any place rated apart, the state's layer alone answers there")
    expect(result.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 1 })])
    expect(result.jurisdictions.filter((j) => j.level === 'county' && j.code === '001')).toEqual([])
    expect(result.rateVaries!.map((v) => v.code)).not.toContain('001')
    const index = indexOf(result)
    const adair = result.candidates.filter((c) => c.countyFips === '29001')
    expect(adair.length).toBeGreaterThan(0)
    for (const c of adair.filter((c) => c.placeFips === null)) expect(c.stack).toEqual([{ level: 'state', code: '29' }])
    for (const zip of zipsWholly(result, '29001', null)) expect(defaultCombinedRate(index, zip, 'MO', '2026-11-01')).toBe(units(MO_STATE))
    const cape = zipsWholly(result, '29031', '2911242')
    expect(cape.length).toBeGreaterThan(0)
    for (const zip of cape) expect(defaultCombinedRate(index, zip, 'MO', '2026-11-01')).toBe(units(MO_STATE, MO_COUNTY_PART, 2.5))
    for (const zip of zipsWholly(result, '29031', null)) expect(defaultCombinedRate(index, zip, 'MO', '2026-11-01')).toBe(units(MO_STATE, MO_COUNTY_PART))
  })
})

describe('finding the rate chart', () => {
  it('takes the chart of the newest period begun, by its link text, holding one of a later period; a sign-in page in its place is refused', async () => {
    const chart = await moRateChart(rows)
    await bed.mirror.publish({
      'mo-dor/rate-tables.html': moRateTablesPageHtml([2026, 2025, 2019]),
      'mo-dor/rate-tables-2026.html': moYearPageHtml([['01/2027 - 03/2027 - XLS', 'jan2027.xlsx'], ['10/2026 - 12/2026 - XLS', 'oct2026.xlsx'], ['07/2026 - 09/2026 - XLS', 'jul2026.xlsx']]),
      'mo-dor/rate-tables-2025.html': moYearPageHtml([['10/2025 - 12/2025 - XLS', 'oct2025.xlsx']]),
      'mo-dor/oct2026.xlsx': chart,
    })
    const sources = await fetchStateSources(MO, MO.feeds[0]!, await bed.context())
    expect(sources.choices[0]).toMatchObject({ edition: '2026-10-01', request: { fileName: 'oct2026.xlsx' } })
    expect(sources.choices[0]!.how).toMatch(/"10\/2026 - 12\/2026 - XLS", the newest of 4 rate chart\(s\).*held until their period: "01\/2027 - 03\/2027 - XLS"/)
    const loaded = await loadFeed(MO, MO.feeds[0]!, await bed.context())
    expect(loaded.edition).toBe('2026-10-01')
    expect(loaded.files.map((f) => f.name)).toContain('oct2026.xlsx')
    await bed.mirror.publish({ 'mo-dor/rate-tables.html': moRateTablesPageHtml([2026]), 'mo-dor/rate-tables-2026.html': moYearPageHtml([['10/2026 - 12/2026 - XLS', 'oct2026.xlsx']]), 'mo-dor/oct2026.xlsx': '<!DOCTYPE html><html><head><title>Sign In</title></head></html>' })
    await expect(fetchStateSources(MO, MO.feeds[0]!, await bed.context())).rejects.toThrow(/oct2026\.xlsx: the server answered an HTML page \("Sign In"\)/)
  })

  it('has no file, rather than failing, on a mirror that does not carry the rate-tables pages', async () => {
    await bed.mirror.publish({})
    await expect(fetchStateSources(MO, MO.feeds[0]!, await bed.context())).rejects.toBeInstanceOf(NoFileForState)
  })

  it('holds a page linking only a chart of a period not yet begun, and fails on a page whose links lost their period text', async () => {
    await bed.mirror.publish({ 'mo-dor/rate-tables.html': moRateTablesPageHtml([2026]), 'mo-dor/rate-tables-2026.html': moYearPageHtml([['01/2027 - 03/2027 - XLS', 'jan2027.xlsx']]) })
    await expect(fetchStateSources(MO, MO.feeds[0]!, await bed.context())).rejects.toThrow(/link only charts of periods not yet begun \("01\/2027 - 03\/2027 - XLS"\); held until then/)
    await bed.mirror.publish({ 'mo-dor/rate-tables.html': moRateTablesPageHtml([2026]), 'mo-dor/rate-tables-2026.html': moYearPageHtml([['Rate chart', 'oct2026.xlsx']]) })
    await expect(fetchStateSources(MO, MO.feeds[0]!, await bed.context())).rejects.toThrow(/link no chart by the text "MM\/YYYY - MM\/YYYY - XLS": their layout changed/)
  })
})

describe('through the publisher replica, as production runs', () => {
  const HOST = new URL(MO_RATE_TABLES_PAGE).host
  const chartUrl = new URL('/forms/oct2026.xlsx', MO_RATE_TABLES_PAGE).href
  // E2: TaxAP presents itself as a browser to dor.mo.gov; the replica's pages answer only one that does
  const servePages = (replica: PublisherReplica) => {
    replica.answer(MO_RATE_TABLES_PAGE, { kind: 'page', html: moRateTablesPageHtml([2026, 2025]), browserOnly: true })
    replica.answer(new URL('2026/', MO_RATE_TABLES_PAGE).href, { kind: 'page', html: moYearPageHtml([['01/2027 - 03/2027 - XLS', 'jan2027.xlsx'], ['10/2026 - 12/2026 - XLS', 'oct2026.xlsx'], ['07/2026 - 09/2026 - XLS', 'jul2026.xlsx']]), browserOnly: true })
    replica.answer(new URL('2025/', MO_RATE_TABLES_PAGE).href, { kind: 'page', html: moYearPageHtml([['10/2025 - 12/2025 - XLS', 'oct2025.xlsx']]), browserOnly: true })
  }

  it('finds the chart from the rate-tables page and its year pages at dor.mo.gov through the proxy, and answers a Cape Girardeau ZIP from it (the chart in the shapes of E2)', async () => {
    const load = await loadFeedAtPublisher('MO', NOW, [HOST], async (replica) => {
      servePages(replica)
      const file = await replica.serveBytes(chartUrl, await moRateChart(rows, { header: MO_HEADER_E2, titleRows: 15, textRows: ['CITIES AND COUNTIES'], form: 'mixed' }))
      replica.answer(chartUrl, { kind: 'file', file, browserOnly: true })
    })
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ edition: '2026-10-01', request: { fileName: 'oct2026.xlsx', officialUrl: chartUrl } })
    expect(loaded.result.files.map((f) => f.url).filter((url) => url.startsWith('https:'))).toEqual([chartUrl])
    const cape = zipsWholly(loaded.result, '29031', '2911242')
    expect(cape.length).toBeGreaterThan(0)
    expect(defaultCombinedRate(stateIndex('MO', loaded.result), cape[0]!, 'MO', NOW.slice(0, 10))).toBe(units(MO_STATE, MO_COUNTY_PART, 2.5))
    expect(load.requests.filter((r) => r.url.startsWith(MO_RATE_TABLES_PAGE)).map((r) => r.url).sort()).toEqual([MO_RATE_TABLES_PAGE, `${MO_RATE_TABLES_PAGE}2025/`, `${MO_RATE_TABLES_PAGE}2026/`])
    expect(load.tunnels).toContain(HOST)
  }, 120_000)

  it('fails with a note naming the chart, its address and the 404 when it is gone between the year page and the download', async () => {
    const { outcome } = await loadFeedAtPublisher('MO', NOW, [HOST], servePages)
    expect(outcome).toEqual({ error: expect.stringMatching(/oct2026\.xlsx: GET https:\/\/dor\.mo\.gov\/forms\/oct2026\.xlsx through the proxy http:\/\/127\.0\.0\.1:\d+ failed: .*404/) })
  }, 120_000)
})
