// New York from DTF Publication 718: a real PDF built in the documented layout (support/ny-pub718-
// fixture.ts, the 2/25 edition's 77 rows) read through pdf.js in reading order, whatever order its
// content stream holds; the traps of publisher-evidence-remaining.md §1 (mis-decoded glyphs, text out
// of order, rows lost, the "Oneida" county and city) fail the file or are read right; compiled against
// the real NY geography with the evidence's pins, each county and city row's reporting code kept as
// its filing code and named on a return by the edition in force on the sale's date; then found from
// the local rates page through the publisher replica, and a bad edition leaves the previous data in
// service.
import { describe, expect, it } from 'vitest'
import { compileNyPub718, MCTD_RATE, NYC_COUNTIES } from '../pipeline/feeds/ny-dtf-pub718/compile.ts'
import { parsePub718, PUB718_LEAST_ROWS } from '../pipeline/feeds/ny-dtf-pub718/pub718.ts'
import { loadFeed } from '../pipeline/run/load-state.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import NY from '../sources/ny.ts'
import { NY_LOCAL_RATES_PAGE } from '../sources/descriptor.ts'
import { expectAnchorsHold, stateIndex } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedRefreshBed, returnRowsOf } from './support/feed-return.ts'
import { feedTestBed } from './support/load-context.ts'
import { PUB718_2_25, nyLocalRatesPage, pub718Pdf, type Pub718FixtureOptions } from './support/ny-pub718-fixture.ts'
import type { PublisherReplica } from './support/publisher-replica.ts'

const FILE = 'pub718.pdf'
const NOW = '2026-11-21T03:00:00.000Z'
const bed = feedTestBed('NY', NOW)
const parse = async (options: Pub718FixtureOptions = {}) => parsePub718(await pub718Pdf(options), FILE)
const compile = async (options: Pub718FixtureOptions = {}) => compileNyPub718({ pub718: await parse(options), stateRate: 4000, geography: bed.geography })
const anchorsHold = (result: Awaited<ReturnType<typeof compile>>) => expectAnchorsHold(NY, 'ny-dtf-pub718', result)
const LATER = '2026-11-28T03:00:00.000Z'

const MIRRORED = `ny-dtf-pub718/${FILE}`

describe('reading Publication 718', () => {
  it('reads the 77 rate rows of the 2/25 edition column by column, with its label, date, MCTD stars and cross-references', async () => {
    const pub = await parse()
    expect(pub).toMatchObject({ label: '2/25', effective: '2025-03-01' })
    expect(pub.rows).toHaveLength(PUB718_LEAST_ROWS)
    expect(pub.rows[0]).toMatchObject({ kind: 'state', rate: 4000, code: '0021' })
    expect(pub.rows.find((r) => r.kind === 'nyc')).toMatchObject({ name: 'New York City', rate: 8875, code: '8081', mctd: true })
    expect(pub.rows.find((r) => r.code === '6511')).toMatchObject({ kind: 'city', name: 'Yonkers', county: 'Westchester', rate: 8875, mctd: true })
    // "Oneida" twice: a county at 8¾ and a city under Madison at 8.
    expect(pub.rows.filter((r) => r.name === 'Oneida').map(({ kind, rate, county }) => ({ kind, rate, county }))).toEqual([
      { kind: 'city', rate: 8000, county: 'Madison' },
      { kind: 'except', rate: 8750, county: undefined },
    ])
    expect(pub.rows.filter((r) => r.kind === 'city')).toHaveLength(18)
    expect(pub.rows.filter((r) => r.mctd).map((r) => r.name)).toEqual(['Dutchess', 'Nassau', 'New York City', 'Orange', 'Putnam', 'Rockland', 'Suffolk', 'Westchester', 'Mount Vernon', 'New Rochelle', 'White Plains', 'Yonkers'])
    expect(pub.crossReferences).toHaveLength(5)
  })

  it('reads the same rows when the content stream runs physical line by physical line across the three columns (pdf.js\'s interleaving)', async () => {
    expect((await parse({ contentOrder: 'physical-lines' })).rows).toEqual((await parse()).rows)
  })

  it('fails a file whose glyphs decode wrong (the 2022 copy\'s "?" fractions and "每" dashes)', async () => {
    await expect(parse({ glyphs: 'misdecoded' })).rejects.toThrow(/no fraction glyph .* anywhere in its text: the glyphs were decoded wrong/)
  })

  it('fails a file whose text comes out in another order: a city row before its county, or no column heads to order by', async () => {
    const rows = [...PUB718_2_25]
    const olean = rows.findIndex((r) => r.name === 'Olean (city)')
    rows.splice(olean - 1, 2, rows[olean]!, rows[olean - 1]!)
    await expect(parse({ rows })).rejects.toThrow(/"Olean \(city\) 8 0441": a city row read under no "– except" county: the text is out of order/)
    await expect(parse({ heads: false })).rejects.toThrow(/0 "County or other locality" column heads on page 1, not 3/)
  })

  it('fails a file with rows lost, a state row other than 4%, or no New York City row', async () => {
    await expect(parse({ rows: PUB718_2_25.filter((r) => r.name !== 'Albany') })).rejects.toThrow(/76 rate rows read, fewer than the 77 of the 2\/25 edition/)
    await expect(parse({ rows: PUB718_2_25.map((r) => (r.code === '0021' ? { ...r, rate: '4½' } : r)) })).rejects.toThrow(/"New York State only" row reads 4.5%, not 4%/)
    await expect(parse({ rows: PUB718_2_25.filter((r) => r.code !== '8081') })).rejects.toThrow(/no single "New York City" row/)
  })
})

describe('compiling New York', () => {
  it('answers the evidence\'s pins: New York City in all five counties, Suffolk, Ontario, Yonkers, Saratoga', async () => {
    const result = await compile()
    anchorsHold(result)
    const nyc = result.candidates.filter((c) => c.countyFips !== null && (NYC_COUNTIES as readonly string[]).includes(c.countyFips))
    expect(new Set(nyc.map((c) => c.countyFips))).toEqual(new Set(NYC_COUNTIES))
    expect(nyc.every((c) => c.stack.some((ref) => ref.level === 'city' && ref.code === '51000') && c.stack.some((ref) => ref.code === 'MCTD'))).toBe(true)
    expect(result.jurisdictions.find((j) => j.code === 'MCTD')!.rate).toBe(MCTD_RATE)
  })

  it('13421 ONEIDA: its Madison part answers Oneida city\'s 8%, its Oneida County part the county\'s 8¾, never the city', async () => {
    const index = stateIndex('NY', await compile())
    const [entry] = index.lookupZip('13421')
    const byCounty = new Map(entry!.candidates.map((c) => [c.county!.fips, index.combinedRate(c.stack, '2025-03-01')]))
    expect(byCounty).toEqual(new Map([['36053', 8000], ['36065', 8750]]))
  })

  it('a Westchester ZIP outside the listed cities answers the county\'s 8⅜; Yonkers 8⅞', async () => {
    const index = stateIndex('NY', await compile())
    expect(defaultCombinedRate(index, '10583', 'NY', '2025-03-01')).toBe(8375)
    expect(defaultCombinedRate(index, '10701', 'NY', '2025-03-01')).toBe(8875)
  })

  it('keeps each county and city row\'s reporting code as its filing code, read back from rates.bin; the state and the MCTD tax get none', async () => {
    const result = await compile()
    const index = stateIndex('NY', result)
    expect(index.filingCode('NY', 'county', '001')).toBe('0181')
    expect(index.filingCode('NY', 'county', '065')).toBe('3010')
    expect(index.filingCode('NY', 'city', '51000')).toBe('8081')
    const yonkers = result.jurisdictions.find((j) => j.level === 'city' && j.name.startsWith('Yonkers'))!
    expect(index.filingCode('NY', 'city', yonkers.code)).toBe('6511')
    expect(index.filingCode('NY', 'state', '36')).toBeNull()
    expect(index.filingCode('NY', 'district', 'MCTD')).toBeNull()
  })

  it('fails a county name that is no New York county, and a county with no row', async () => {
    await expect(compile({ rows: PUB718_2_25.map((r) => (r.name === 'Albany' ? { ...r, name: 'Atlantis' } : r)) })).rejects.toThrow(/"Atlantis 8 0181": Atlantis is no New York county outside New York City of the geography/)
    // 77 rows still: Yates left out, a row for Scarsdale (a village of Westchester) read in its place.
    const withoutYates = PUB718_2_25.flatMap((r) => (r.name === 'Yates' ? [] : r.code === '6511' ? [r, { name: '*Scarsdale (city)', rate: '8⅜', code: '9998', city: true }] : [r]))
    await expect(compile({ rows: withoutYates })).rejects.toThrow(/1 New York counties have no row \(Yates\): the publication was read incompletely/)
  })
})

describe('finding the publication', () => {
  it('loads the pub718.pdf a mirror holds, and holds an edition effective after today until then', async () => {
    await bed.mirror.publish({ [`ny-dtf-pub718/${FILE}`]: await pub718Pdf() })
    const result = await loadFeed(NY, NY.feeds[0]!, await bed.context())
    expect(result.edition).toBe('2025-03-01')
    await bed.mirror.publish({ [`ny-dtf-pub718/${FILE}`]: await pub718Pdf({ effective: 'March 1, 2027' }) })
    await expect(loadFeed(NY, NY.feeds[0]!, await bed.context())).rejects.toThrow(/its rates take effect on 2027-03-01, after today \(2026-11-21\); held until then/)
  })

  it('keeps the previous edition in service when the next one cannot be read (its glyphs mis-decoded)', async () => {
    const { refreshWith } = await feedRefreshBed('NY')
    const good = await refreshWith({ [MIRRORED]: await pub718Pdf() }, NOW)
    expect(good.states.find((s) => s.code === 'NY')).toMatchObject({ feed: 'ny-dtf-pub718', status: 'ok', edition: '2025-03-01' })
    const bad = await refreshWith({ [MIRRORED]: await pub718Pdf({ glyphs: 'misdecoded' }) }, LATER)
    const ny = bad.states.find((s) => s.code === 'NY')!
    expect(ny).toMatchObject({ feed: 'ny-dtf-pub718', status: 'failed', edition: '2025-03-01', data_from_snapshot: good.manifest!.snapshot })
    expect(ny.notes[0]).toMatch(/previous ny-dtf-pub718 data kept while ny-dtf-pub718 cannot serve .*no fraction glyph/)
  }, 300_000)
})

describe('on a return', () => {
  it('names each county and city row by the reporting code of the edition in force on the sale\'s date', async () => {
    const { artifacts, refreshWith } = await feedRefreshBed('NY')
    expect((await refreshWith({ [MIRRORED]: await pub718Pdf() }, NOW)).states.find((s) => s.code === 'NY')).toMatchObject({ status: 'ok', edition: '2025-03-01' })
    // The next edition raises Albany's rate, and its reporting code changes with it (§1.4); Suffolk's
    // code changes at the same rate (the numbering is inferred, §1.4: a return must not lean on it).
    const raised = PUB718_2_25.map((r) => (r.code === '0181' ? { ...r, rate: '8½', code: '0182' } : r.code === '4711' ? { ...r, code: '4712' } : r))
    expect((await refreshWith({ [MIRRORED]: await pub718Pdf({ rows: raised, effective: 'September 1, 2026' }) }, LATER)).states.find((s) => s.code === 'NY')).toMatchObject({ status: 'changed', edition: '2026-09-01' })

    const sale = (id: string, date: string, zip: string) => ({ id, date, zip })
    const sales = [sale('albany-aug', '2026-08-14', '12207'), sale('albany-sep', '2026-09-14', '12207'), sale('nyc-sep', '2026-09-15', '10001'), sale('suffolk-aug', '2026-08-20', '11901'), sale('suffolk-sep', '2026-09-20', '11901')]
    const rows = await returnRowsOf(artifacts, LATER, 'NY', sales, '2026-07-01', '2026-09-30')
    const system = 'New York sales tax reporting code'
    expect(rows.filter((row) => row.level === 'county')).toEqual([
      { level: 'county', code: '001', name: 'Albany', rate: '0.04000', transactions: 1, filing_code: { code: '0181', system } },
      { level: 'county', code: '001', name: 'Albany', rate: '0.04500', transactions: 1, filing_code: { code: '0182', system } },
      { level: 'county', code: '103', name: 'Suffolk', rate: '0.04375', transactions: 1, filing_code: { code: '4711', system } },
      { level: 'county', code: '103', name: 'Suffolk', rate: '0.04375', transactions: 1, filing_code: { code: '4712', system } },
    ])
    expect(rows.filter((row) => row.level === 'city')).toEqual([{ level: 'city', code: '51000', name: 'New York City', rate: '0.04500', transactions: 1, filing_code: { code: '8081', system } }])
    expect(rows.filter((row) => row.level === 'state' || row.level === 'district').map((row) => row.filing_code)).toEqual([null, null])
  }, 300_000)
})

describe('through the publisher replica, as production runs', () => {
  const page = new URL(NY_LOCAL_RATES_PAGE)
  const pdfUrl = new URL('/pdf/publications/sales/pub718.pdf', page).href
  const serve = (options: Pub718FixtureOptions = {}) => async (replica: PublisherReplica) => {
    replica.answer(NY_LOCAL_RATES_PAGE, { kind: 'page', html: nyLocalRatesPage() })
    await replica.serveBytes(pdfUrl, await pub718Pdf(options))
  }

  it('follows the local rates page\'s link to pub718.pdf at www.tax.ny.gov through the proxy, and answers the pins', async () => {
    const load = await loadFeedAtPublisher('NY', NOW, [page.host], serve())
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ request: { fileName: FILE, officialUrl: pdfUrl } })
    expect(loaded.result.edition).toBe('2025-03-01')
    expect(loaded.result.files.filter((f) => f.url.startsWith('https:')).map((f) => f.url)).toEqual([pdfUrl])
    anchorsHold(loaded.result)
    expect(load.requests.map((r) => `${r.method} ${r.url} ${r.status}`)).toEqual([`GET ${NY_LOCAL_RATES_PAGE} 200`, `GET ${pdfUrl} 200`])
  }, 120_000)

  it('fails with a note naming the page when it no longer links the publication', async () => {
    const { outcome } = await loadFeedAtPublisher('NY', NOW, [page.host], (replica) => replica.answer(NY_LOCAL_RATES_PAGE, { kind: 'page', html: nyLocalRatesPage('/pdf/publications/sales/pub718a.pdf') }))
    expect(outcome).toEqual({ error: expect.stringMatching(/local rates page https:\/\/www\.tax\.ny\.gov\/.* links no pub718\.pdf/) })
  }, 120_000)
})

