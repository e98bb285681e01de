// Florida from DOR's surtax workbook: a workbook built from the documented layout
// (support/fl-surtax-fixture.ts) in both documented cell forms, parsed and compiled against the
// real FL geography; discovered on a mirror and by PointMatch's "Download All" postback over
// loopback HTTP and, as production runs, at pointmatch.floridarevenue.com through the publisher
// replica in a process of its own; the evidence's CY2026 figures as anchors.
import { writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { fetchByPostback } from '../pipeline/fetch/aspnet-postback.ts'
import { compileFlSurtax } from '../pipeline/feeds/fl-dor-surtax/compile.ts'
import { parseFlSurtaxWorkbook } from '../pipeline/feeds/fl-dor-surtax/workbook.ts'
import { loadFeed } from '../pipeline/run/load-state.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import FL from '../sources/fl.ts'
import { FL_SURTAX_PAGE } from '../sources/descriptor.ts'
import { flSurtaxWorkbook, FL_SURTAX, HAMILTON_TOTAL_IN_SURTAX_CELL, percentNumbersInSurtaxCells, pointMatchPage, POINTMATCH_DOWNLOAD_FIELDS } from './support/fl-surtax-fixture.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import type { PublisherReplica } from './support/publisher-replica.ts'

const FILE = 'DiscretionarySalesSurtaxRates.xlsx'
const STATE_RATE = 6000
const bed = feedTestBed('FL', '2026-11-21T03:00:00.000Z')
let geography: Geography
let counties: string[]

beforeAll(() => {
  geography = bed.geography
  counties = bed.counties.map((c) => c.name.toUpperCase())
})

const parse = async (options: Partial<Parameters<typeof flSurtaxWorkbook>[0]> = {}) => parseFlSurtaxWorkbook(await flSurtaxWorkbook({ counties, ...options }), FILE)
const compile = async (options: Partial<Parameters<typeof flSurtaxWorkbook>[0]> = {}) => compileFlSurtax({ workbook: await parse(options), stateRate: STATE_RATE, geography })
/** The sheet row of a county: the heading on row 1, the counties below in the fixture's order. */
const rowOf = (county: string) => counties.indexOf(county) + 2

describe('reading the surtax workbook', () => {
  it('reads every county and the date of the footer, the surtax as N% text or as a percent-formatted fraction alike', async () => {
    const text = await parse({ form: 'text' })
    const fraction = await parse({ form: 'fraction' })
    expect(text.asOf).toBe('2026-01-01')
    expect(text.rows).toHaveLength(counties.length)
    expect(fraction.rows).toEqual(text.rows)
    expect(text.rows.find((r) => r.county === 'PALM BEACH')!.rate).toBe(500)
    // Hamilton at 2% (TaxAP) beyond OST's 1.5% top: the conflict is accepted, not refused.
    expect(text.rows.find((r) => r.county === 'HAMILTON')!.rate).toBe(FL_SURTAX.HAMILTON! * 1000)
  })

  it('sets aside a percent where a fraction is expected, a fraction printed as a percent, and a heading row moved below the counties, naming each with its row', async () => {
    const percent = await parse({ surtax: { BAY: 1.5 } })
    expect(percent.rows).toHaveLength(counties.length - 1)
    expect(percent.setAside.namedLocalities()).toEqual(['BAY'])
    expect(percent.setAside.notes()).toEqual([`${FILE}: 1 row(s) set aside, their taxes left out of every answer (row ${rowOf('BAY')}: BAY: 1.5 is no fraction a surtax can be (at most 0.02000): a percent where a fraction is expected?)`])
    expect((await parse({ surtax: { BAY: '0.01%' } })).setAside.notes()[0]).toContain(`row ${rowOf('BAY')}: BAY: surtax 0.01% is below any surtax (0.1%): a fraction printed as a percent?`)
    const heading = await parse({ trailing: [['County', 'Surtax Rate']] })
    expect(heading.rows).toHaveLength(counties.length)
    expect(heading.setAside.notes()[0]).toContain(`row ${counties.length + 2}: County: surtax "Surtax Rate" is neither N% nor a number`)
  })

  it('fails the file past the share a file may set aside: surtax cells all percent numbers (a unit change), and a workbook without its date', async () => {
    // Collier's 0 reads as no surtax in either unit; every other county's row is set aside
    await expect(parse({ surtax: percentNumbersInSurtaxCells(counties) })).rejects.toThrow(new RegExp(`^${FILE}: ${counties.length - 1} of ${counties.length} rows set aside, more than 5% \\(5\\): its layout or units changed\\? \\(row 2: `))
    // six odd rows are past the share of 67 (5% floors at 5); five are not
    const odd = (n: number) => Object.fromEntries(counties.slice(0, n).map((county) => [county, '8%']))
    expect((await parse({ surtax: odd(5) })).setAside.count).toBe(5)
    await expect(parse({ surtax: odd(6) })).rejects.toThrow(/6 of 67 rows set aside, more than 5% \(5\)/)
    await expect(parse({ asOf: null })).rejects.toThrow(/no "Rates shown above are current as of M\/D\/YYYY" line/)
  })
})

describe('compiling Florida', () => {
  it('answers each ZIP with the state rate and its county surtax: the CY2026 anchors of the evidence', async () => {
    const result = await compile()
    const index = new RateIndex(writeRateIndex({ states: [{ code: 'FL', result }], zipMeta: () => undefined }))
    for (const anchor of FL.anchors.filter((a) => a.feed === 'fl-dor-surtax')) {
      expect(defaultCombinedRate(index, anchor.zip, 'FL', anchor.asOf), anchor.source).toBe(Number(anchor.expected.replace('.', '')))
    }
    expect(result.jurisdictions.filter((j) => j.level === 'city')).toEqual([])
  })

  it('the evidence\'s Hamilton total in the surtax cell: that row set aside and named, Hamilton answering the state rate with the row counted as left out, every other county served', async () => {
    const result = await compile({ surtax: HAMILTON_TOTAL_IN_SURTAX_CELL })
    expect(result.notes).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (row ${rowOf('HAMILTON')}: HAMILTON: surtax 8% is above the largest surtax (2%))`)
    expect(result.notes).toContain("1 Florida counties have no layer of their own, the rows rating them set aside (Hamilton (12047)): outside any place rated apart, the state's layer alone answers there")
    expect(result.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 1 })])
    expect({ rowsRead: result.rowsRead, rowsParsed: result.rowsParsed }).toEqual({ rowsRead: counties.length, rowsParsed: counties.length - 1 })
    const index = new RateIndex(writeRateIndex({ states: [{ code: 'FL', result }], zipMeta: () => undefined }))
    for (const anchor of FL.anchors.filter((a) => a.feed === 'fl-dor-surtax')) {
      expect(defaultCombinedRate(index, anchor.zip, 'FL', anchor.asOf), anchor.source).toBe(Number(anchor.expected.replace('.', '')))
    }
    const counted = (name: string) => result.jurisdictions.filter((j) => j.level === 'county' && j.name === name)
    expect(counted('Hamilton')).toEqual([])
    expect(counted('Bay').map((j) => j.rate)).toEqual([FL_SURTAX.BAY ?? 1000])
    const hamiltonZip = [...geography.zips.values()].find((z) => z.state === 'FL' && z.counties.length === 1 && geography.counties.get(z.counties[0]!.fips)?.name === 'Hamilton')!
    expect(defaultCombinedRate(index, hamiltonZip.zip, 'FL', '2026-11-21')).toBe(STATE_RATE)
  })

  it('sets aside a county name that binds to no county; refuses a workbook missing a county no row names', async () => {
    const extra = await compile({ counties: [...counties, 'ATLANTIS'] })
    expect(extra.notes).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (row ${counties.length + 2}: ATLANTIS binds to no Florida county of the geography)`)
    await expect(compile({ counties: counties.filter((c) => c !== 'BAY') })).rejects.toThrow(/1 of 67 Florida counties of the geography not listed \(Bay \(12005\)\): the file is incomplete/)
  })
})

describe('finding the workbook', () => {

  it('loads the workbook a mirror lists, and holds one dated after today until then', async () => {
    await bed.mirror.publish({ [`fl-dor-surtax/${FILE}`]: await flSurtaxWorkbook({ counties }) })
    const result = await loadFeed(FL, FL.feeds[0]!, await bed.context())
    expect(result.edition).toBe('2026-01-01')
    expect(result.files.map((f) => f.name)).toContain(FILE)
    await bed.mirror.publish({ [`fl-dor-surtax/${FILE}`]: await flSurtaxWorkbook({ counties, asOf: '1/1/2027' }) })
    await expect(loadFeed(FL, FL.feeds[0]!, await bed.context())).rejects.toThrow(/its rates take effect on 2027-01-01, after today \(2026-11-21\); held until then/)
  })

  it('fetches it from PointMatch by posting the page back with "Download All", its hidden state fields included', async () => {
    const workbook = await flSurtaxWorkbook({ counties })
    const posted: string[] = []
    const page = pointMatchPage()
    let postGone = false
    const server = http.createServer((req, res) => {
      if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page)
      if (postGone) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>404</title></html>')
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        posted.push(body)
        const form = new URLSearchParams(body)
        const ok = Object.entries(POINTMATCH_DOWNLOAD_FIELDS).every(([name, value]) => form.get(name) === value)
        if (ok) res.writeHead(200, { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }).end(workbook)
        else res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><head><title>Session expired</title></head></html>')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/General/DiscretionarySalesSurtaxRates.aspx`
      const { settings } = await bed.context()
      const fetched = await fetchByPostback({ feed: 'fl-dor-surtax', fileName: FILE, officialUrl: url }, 'Download All', settings)
      expect(fetched.bytes.equals(workbook)).toBe(true)
      expect(posted).toHaveLength(1)
      await expect(fetchByPostback({ feed: 'fl-dor-surtax', fileName: FILE, officialUrl: url }, 'Export', settings)).rejects.toThrow(/the page has no "Export" button/)
      // A postback the server no longer takes is a file gone (FetchError.notFound), like a GET's 404.
      postGone = true
      await expect(fetchByPostback({ feed: 'fl-dor-surtax', fileName: FILE, officialUrl: url }, 'Download All', settings)).rejects.toMatchObject({ notFound: true, status: 404 })
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('through the publisher replica, as production runs', () => {
  const NOW = '2026-11-21T03:00:00.000Z'
  const HOST = new URL(FL_SURTAX_PAGE).host
  const servePointMatch = (page: string) => async (replica: PublisherReplica, dir: string) => {
    const file = path.join(dir, FILE)
    await writeFile(file, await flSurtaxWorkbook({ counties }))
    replica.answer(FL_SURTAX_PAGE, { kind: 'postback', html: page, fields: POINTMATCH_DOWNLOAD_FIELDS, file })
  }

  it('posts PointMatch\'s page back with "Download All" at pointmatch.floridarevenue.com through the proxy, and answers the anchors from the workbook', async () => {
    const load = await loadFeedAtPublisher('FL', NOW, [HOST], servePointMatch(pointMatchPage()))
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ edition: 'current', postback: 'Download All', request: { fileName: FILE, officialUrl: FL_SURTAX_PAGE } })
    expect(loaded.result.edition).toBe('2026-01-01')
    expect(loaded.result.files.filter((f) => f.url.startsWith('https:')).map((f) => [f.name, f.url])).toEqual([[FILE, FL_SURTAX_PAGE]])
    const index = new RateIndex(writeRateIndex({ states: [{ code: 'FL', result: loaded.result }], zipMeta: () => undefined }))
    for (const anchor of FL.anchors.filter((a) => a.feed === 'fl-dor-surtax')) expect(defaultCombinedRate(index, anchor.zip, 'FL', anchor.asOf), anchor.source).toBe(Number(anchor.expected.replace('.', '')))
    expect(load.requests.filter((r) => r.url === FL_SURTAX_PAGE).map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'POST 200'])
    expect(load.tunnels).toContain(HOST)
  }, 120_000)

  it('fails with a note naming the page and the button when the page no longer offers "Download All"', async () => {
    const { outcome } = await loadFeedAtPublisher('FL', NOW, [HOST], servePointMatch(pointMatchPage('Export to Excel')))
    expect(outcome).toEqual({ error: `${FILE}: ${FL_SURTAX_PAGE}: the page has no "Download All" button` })
  }, 120_000)
})
