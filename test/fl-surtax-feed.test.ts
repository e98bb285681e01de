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
import { flSurtaxWorkbook, FL_SURTAX, pointMatchPage, POINTMATCH_DOWNLOAD_FIELDS } from './support/fl-surtax-fixture.ts'
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

  it('refuses a percent where a fraction is expected, and a fraction printed as a percent', async () => {
    await expect(parse({ surtax: { BAY: 1.5 } })).rejects.toThrow(/row \d+ \(BAY\): 1\.5 is no fraction a surtax can be \(at most 0\.02000\): a percent where a fraction is expected/)
    await expect(parse({ surtax: { BAY: '0.01%' } })).rejects.toThrow(/\(BAY\): surtax 0\.01% is below any surtax \(0\.1%\): a fraction printed as a percent/)
  })

  it('refuses a heading row moved below the counties, and a workbook without its date', async () => {
    await expect(parse({ trailing: [['County', 'Surtax Rate']] })).rejects.toThrow(/\(County\): surtax "Surtax Rate" is neither N% nor a number/)
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

  it('refuses a county name that binds to no county, and a workbook missing counties', async () => {
    await expect(compile({ counties: [...counties, 'ATLANTIS'] })).rejects.toThrow(/ATLANTIS binds to no Florida county of the geography/)
    await expect(compile({ counties: counties.filter((c) => c !== 'BAY') })).rejects.toThrow(/1 of 67 Florida counties not listed \(Bay\): the workbook is incomplete/)
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
