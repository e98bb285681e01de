// Louisiana from the Remote Sellers Commission's lookup, crawled by ASP.NET postbacks one parish at
// a time (support/la-lookup-fixture.ts, the documented form): parish + domicile rates bound through
// the parishes' alphabetical numbering and the Census places, a domicile code with different rates in
// two parishes, a district with no Census area listed as a tax that may apply; a parish missing from
// the drop-down or answered with an error page on 200 answers the state rate and says so; the
// domicile codes kept as filing codes and a return naming each sale's domicile once; the host's
// incomplete certificate chain fails with the remedy named (NODE_EXTRA_CA_CERTS), and is cured by it.
import { rm } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { compileLaLookup, MOST_UNREAD_PARISHES } from '../pipeline/feeds/la-remote-sellers/compile.ts'
import { crawlLookup, type LaCrawl } from '../pipeline/feeds/la-remote-sellers/lookup.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import { LA_LOOKUP_PAGE } from '../sources/descriptor.ts'
import LA from '../sources/la.ts'
import { expectAnchorsHold, stateIndex } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher, loadFeedProcess } from './support/feed-load-process.ts'
import { feedRefreshBed, returnRowsOf } from './support/feed-return.ts'
import { feedTestBed } from './support/load-context.ts'
import { laLookupPage, laParishes, laRows, serveLaLookup, type LaParish } from './support/la-lookup-fixture.ts'
import { startPublisherReplica } from './support/publisher-replica.ts'
import { issueIncompleteChain } from './support/replica-certificates.ts'
import { tempDir } from './support/temp-dirs.ts'

const NOW = '2026-11-21T03:00:00.000Z'
const HOST = new URL(LA_LOOKUP_PAGE).host
const bed = feedTestBed('LA', NOW)
let parishes: LaParish[]
beforeAll(() => {
  parishes = laParishes(bed.counties)
})

const page = (code: string) => laLookupPage({ parishes, selected: code, rows: laRows(parishes.find((p) => p.code === code)!) })
const crawl = (answer: (code: string) => string = page) => crawlLookup(LA_LOOKUP_PAGE, page(parishes[0]!.code), async (_fields, parish) => answer(parish.code))
const compile = (lookup: LaCrawl) => compileLaLookup({ crawl: lookup, fileName: 'la-remote-sellers-09-01-2026.json', stateRate: 5000, geography: bed.geography, effective: '2026-09-01' })
const anchorsHold = (result: ReturnType<typeof compile>) => expectAnchorsHold(LA, 'la-remote-sellers', result)

describe('crawling the lookup', () => {
  it('posts each of the 64 parishes back and reads its grdRates rows for the selected filing period', async () => {
    const lookup = await crawl()
    expect(lookup).toMatchObject({ period: '09-01-2026', periodLabel: 'Sep-2026' })
    expect(lookup.parishes).toHaveLength(64)
    expect(lookup.parishes.find((p) => p.code === '3600')!.rows).toEqual([
      { name: 'Orleans Parish', domicile: '3600', rate: '5.0000%' },
      { name: 'French Quarter EDD', domicile: '3601', rate: '0.2450%' },
      { name: 'French Quarter EDD', domicile: '3601', rate: '5.0000%' },
    ])
  })

  it('records an answer that is an error page on 200, or another parish echoed, as unread with why, never as rates', async () => {
    const lookup = await crawl((code) => (code === '0200' ? '<!DOCTYPE html><html><head><title>Runtime Error</title></head><body>Server Error</body></html>' : code === '0300' ? page('0400') : page(code)))
    expect(lookup.parishes.find((p) => p.code === '0200')).toMatchObject({ rows: null, problem: 'the answer is not the lookup form (an error page answered 200?)' })
    expect(lookup.parishes.find((p) => p.code === '0300')).toMatchObject({ rows: null, problem: 'the answer is for 0400, not 0300' })
  })
})

describe('compiling Louisiana', () => {
  it('answers the pins: Eunice\'s 0108 at 7.45% in St. Landry and 8.25% in Acadia; New Orleans 10% with the French Quarter listed as a district that may apply', async () => {
    const result = compile(await crawl())
    anchorsHold(result)
    const index = stateIndex('LA', result)
    const [eunice] = index.lookupZip('70535')
    const byCounty = new Map(eunice!.candidates.filter((c) => c.place).map((c) => [c.county!.fips, index.combinedRate(c.stack, '2026-09-01')]))
    expect(byCounty.get('22097')).toBe(7450)
    expect(result.unplaced).toEqual([expect.objectContaining({ level: 'district', name: 'French Quarter EDD (3601)', rate: 5245 - 5000, counties: ['22071'] })])
  })

  it('answers a parish with no parish-wide row outside its towns at the least rate of its domiciles, a lower bound said so', async () => {
    const lookup = await crawl()
    const acadia = lookup.parishes.find((p) => p.code === '0100')!
    acadia.rows = acadia.rows!.filter((r) => r.domicile !== '0100')
    const result = compile(lookup)
    expect(result.rateVaries).toContainEqual(expect.objectContaining({ level: 'county', code: '001', kind: 'estimated', lower_bound: true }))
    expect(result.jurisdictions.find((j) => j.level === 'county' && j.code === '001')!.rate).toBe(3250)
  })

  it('answers a parish missing from the drop-down, or not read, at the state rate with its local taxes named as not included; too many fail the lookup', async () => {
    const lookup = await crawl()
    lookup.parishes = lookup.parishes.filter((p) => p.code !== '3600')
    const result = compile(lookup)
    expect(result.notes).toContain('warning: Orleans Parish: missing from the lookup\'s parish drop-down; that parish answers the state rate with its local taxes named as not included')
    expect(defaultCombinedRate(stateIndex('LA', result), '70112', 'LA', '2026-09-01')).toBe(5000)
    expect(result.rateVaries).toContainEqual(expect.objectContaining({ kind: 'unpublished', code: 'local', basis: expect.stringContaining('Orleans Parish could not be read') }))
    const broken = await crawl()
    for (const parish of broken.parishes.slice(0, MOST_UNREAD_PARISHES + 1)) parish.rows = null
    expect(() => compile(broken)).toThrow(/5 of 64 parishes could not be read .*more than 4, so the lookup is not answering/)
  })

  it('keeps the domicile code as the filing code of a parish (its pp00) and of a town, read back from rates.bin; a parish with no parish-wide row has none', async () => {
    const lookup = await crawl()
    const acadia = lookup.parishes.find((p) => p.code === '0100')!
    acadia.rows = acadia.rows!.filter((r) => r.domicile !== '0100')
    const result = compile(lookup)
    const index = stateIndex('LA', result)
    expect(index.filingCode('LA', 'county', '071')).toBe('3600')
    expect(index.filingCode('LA', 'county', '097')).toBe('4900')
    expect(index.filingCode('LA', 'county', '001')).toBeNull()
    const eunice = result.jurisdictions.filter((j) => j.level === 'city' && j.name === 'City of Eunice')
    expect(eunice.map((j) => index.filingCode('LA', 'city', j.code))).toEqual(eunice.map(() => '0108'))
    expect(eunice.length).toBeGreaterThan(0)
    expect(index.filingCode('LA', 'state', '22')).toBeNull()
  })

  it('fails when a parish name is not the county its number gives (the numbering assumed broke)', async () => {
    const lookup = await crawl()
    lookup.parishes[0]!.name = 'Allen Parish (0100)'
    expect(() => compile(lookup)).toThrow(/"Allen Parish \(0100\)" \(0100\) is not parish 22001 \(Acadia Parish\)/)
  })
})

describe('on a return', () => {
  it('names a parish and a town by their domicile codes', async () => {
    const { artifacts, refreshWith } = await feedRefreshBed('LA')
    const files = Object.fromEntries([['la-remote-sellers/lookup.aspx', page(parishes[0]!.code)], ...parishes.map((p) => [`la-remote-sellers/lookup-${p.code}.html`, page(p.code)])])
    expect((await refreshWith(files, NOW)).states.find((s) => s.code === 'LA')).toMatchObject({ feed: 'la-remote-sellers', edition: '2026-09-01' })
    const rows = await returnRowsOf(artifacts, NOW, 'LA', [{ id: 'new-orleans', date: '2026-10-05', zip: '70112' }, { id: 'eunice', date: '2026-10-06', zip: '70535', city: 'Eunice' }], '2026-10-01', '2026-10-31')
    // Eunice's sale lands on its domicile alone, at the whole local rate there: not on St. Landry's 4900 too.
    const system = 'Louisiana domicile code'
    expect(rows.filter((row) => row.level !== 'state').map(({ name, rate, transactions, filing_code }) => ({ name, rate, transactions, filing_code }))).toEqual([
      { name: 'Orleans Parish', rate: '0.05000', transactions: 1, filing_code: { code: '3600', system } },
      { name: 'City of Eunice', rate: '0.02450', transactions: 1, filing_code: { code: '0108', system } },
    ])
  }, 300_000)
})

describe('through the publisher replica, as production runs', () => {
  it('crawls remotesellersfiling.la.gov by postbacks through the proxy and answers the pins', async () => {
    const load = await loadFeedAtPublisher('LA', NOW, [HOST], (replica) => serveLaLookup(replica, LA_LOOKUP_PAGE, parishes))
    const loaded = loadedFeed(load)
    expect(loaded.result.edition).toBe('2026-09-01')
    anchorsHold(loaded.result)
    expect(load.requests.filter((r) => r.method === 'POST')).toHaveLength(64)
  }, 120_000)

  it('serves a parish missing from the drop-down and one answered with an error page at the state rate, naming them', async () => {
    const load = await loadFeedAtPublisher('LA', NOW, [HOST], (replica) => serveLaLookup(replica, LA_LOOKUP_PAGE, parishes, { leaveOut: ['Orleans Parish'], errorPage: ['Caddo Parish'] }))
    const { result } = loadedFeed(load)
    expect(result.notes.filter((n) => n.startsWith('warning: '))).toEqual([
      'warning: Caddo Parish (0900): the answer is not the lookup form (an error page answered 200?); that parish answers the state rate with its local taxes named as not included',
      'warning: Orleans Parish: missing from the lookup\'s parish drop-down; that parish answers the state rate with its local taxes named as not included',
    ])
  }, 120_000)

  it('fails on the host\'s incomplete certificate chain with the remedy named, and reads it once NODE_EXTRA_CA_CERTS holds the intermediate', async () => {
    const dir = await tempDir('la-chain')
    const chain = await issueIncompleteChain([HOST], dir)
    const replica = await startPublisherReplica([HOST], dir, chain)
    try {
      serveLaLookup(replica, LA_LOOKUP_PAGE, parishes)
      const refused = await loadFeedProcess('LA', NOW, dir, { HTTPS_PROXY: replica.env.HTTPS_PROXY, NODE_EXTRA_CA_CERTS: chain.caFile })
      expect(refused).toEqual({ error: expect.stringMatching(/unable to verify the first certificate.*remotesellersfiling\.la\.gov is known to serve its certificate without the "Go Daddy Secure Certificate Authority - G2" intermediate: add that certificate .* to the file NODE_EXTRA_CA_CERTS names; never turn verification off/) })
      const completed = await loadFeedProcess('LA', NOW, dir, { HTTPS_PROXY: replica.env.HTTPS_PROXY, NODE_EXTRA_CA_CERTS: chain.completedFile })
      expect('result' in completed && completed.result.edition).toBe('2026-09-01')
    } finally {
      await replica.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
