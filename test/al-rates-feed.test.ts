// Alabama from DOR's local rates file: a CSV built from the documented layout
// (support/al-rate-fixture.ts), parsed by header name and compiled against the real AL geography;
// found on a mirror served over loopback HTTP and, as production runs, from the local rates page at
// www.revenue.alabama.gov through the publisher replica in a process of its own.
import { beforeAll, describe, expect, it } from 'vitest'
import { parseAlRateFile } from '../pipeline/feeds/al-dor/rate-file.ts'
import { compileAlRates } from '../pipeline/feeds/al-dor/compile.ts'
import { fetchStateSources, loadFeed } from '../pipeline/run/load-state.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import AL from '../sources/al.ts'
import { AL_RATES_PAGE } from '../sources/descriptor.ts'
import { AL_HEADER, alRateFile } from './support/al-rate-fixture.ts'
import { stateIndex, zipsWholly } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import type { PublisherReplica } from './support/publisher-replica.ts'

const FILE = 'taxrates_current.csv'
const STATE_RATE = 4000
const NOW = '2026-11-21T03:00:00.000Z'
const bed = feedTestBed('AL', NOW)
let geography: Geography
let counties: string[]
const compile = (text: string, edition = '2026-11-21') => compileAlRates({ file: parseAlRateFile(text, FILE), stateRate: STATE_RATE, geography, edition })

beforeAll(() => {
  geography = bed.geography
  counties = bed.counties.map((c) => c.name).sort()
})

const placeNamed = (name: string) => [...geography.places.values()].find((p) => p.state === 'AL' && p.name === name && p.kind === 'incorporated')!

describe('reading the local rates file', () => {
  it('keeps general sales rows only, by header name in any column order', () => {
    const file = parseAlRateFile(alRateFile(counties), FILE)
    expect(file.rows).toHaveLength(counties.length + 4)
    expect(parseAlRateFile(alRateFile(counties, { header: [...AL_HEADER].reverse() }), FILE).rows.map(({ line, ...r }) => r)).toEqual(file.rows.map(({ line, ...r }) => r))
    expect(file.rows.find((r) => r.code === '9002')).toMatchObject({ rate: 3500, pjRate: 1750, to: null })
  })

  it('refuses a header moved below a title line, a fraction where a percent is expected, and dates of another form', () => {
    expect(() => parseAlRateFile(`Local Tax Rates\r\n${alRateFile(counties)}`, FILE)).toThrow(/header lacks Locality Code, Locality Name/)
    expect(() => parseAlRateFile(alRateFile(counties, { edit: (r) => (r['Locality Code'] === '9002' ? { ...r, Rate: '0.035' } : r) }), FILE)).toThrow(/9002 Rate 0\.035 is below 0\.1%: a fraction where a percent is expected/)
    expect(() => parseAlRateFile(alRateFile(counties, { edit: (r) => (r['Locality Code'] === '9002' ? { ...r, 'Active Date': '1/1/2020' } : r) }), FILE)).toThrow(/9002 dates 1\/1\/2020– are not YYYYMMDD/)
  })
})

describe('compiling Alabama', () => {
  it('answers a city part with state, county and city on each date; outside cities, state and county', () => {
    const result = compile(alRateFile(counties))
    const index = new RateIndex(writeRateIndex({ states: [{ code: 'AL', result }], zipMeta: () => undefined }))
    const birmingham = zipsWholly(result, '01073', placeNamed('Birmingham').geoid)
    const outside = zipsWholly(result, '01073', null)
    expect(birmingham.length).toBeGreaterThan(0)
    expect(outside.length).toBeGreaterThan(0)
    for (const zip of birmingham) {
      expect(defaultCombinedRate(index, zip, 'AL', '2026-09-30')).toBe(STATE_RATE + 1000 + 4000)
      expect(defaultCombinedRate(index, zip, 'AL', '2026-10-01')).toBe(STATE_RATE + 1000 + 4500)
    }
    for (const zip of outside) expect(defaultCombinedRate(index, zip, 'AL', '2026-11-21')).toBe(STATE_RATE + 1000)
  })

  it('lists a police jurisdiction and a city that binds to no place as unplaced, never summed in', () => {
    const result = compile(alRateFile(counties))
    expect(result.unplaced).toEqual([
      expect.objectContaining({ level: 'district', code: '9002-PJ', rate: 1750, reason: expect.stringMatching(/police jurisdiction of MONTGOMERY/) }),
      expect.objectContaining({ level: 'city', code: '9003', rate: 2000, counties: ['01073'], reason: expect.stringMatching(/binds to no Census place named ATLANTIS/) }),
    ].sort((a, b) => (a.code < b.code ? -1 : 1)) as never)
    expect(result.candidates.some((c) => c.stack.some((ref) => ref.code === '9002-PJ' || ref.code === '9003'))).toBe(false)
  })

  it('holds a file whose every row takes effect after today, and refuses a county that binds to no county', () => {
    expect(() => compile(alRateFile(counties, { edit: (r) => ({ ...r, 'Active Date': '20270101', 'Inactive Date': '' }) }))).toThrow(/no general sales row is active on or before 2026-11-21: a file of rates not yet in force; held until then/)
    expect(() => compile(alRateFile([...counties, 'Atlantis']))).toThrow(/county locality 7068 ATLANTIS COUNTY binds to no Alabama county/)
  })
})

describe('finding the local rates file', () => {
  it('takes taxrates_current.csv, else the taxrates.csv history form, and refuses a sign-in page in its place', async () => {
    const text = alRateFile(counties)
    await bed.mirror.publish({ 'al-dor/taxrates.csv': text, 'al-dor/taxrates_current.csv': text })
    const current = await loadFeed(AL, AL.feeds[0]!, await bed.context())
    expect(current.files.map((f) => f.name)).toContain('taxrates_current.csv')
    expect(current.files.map((f) => f.name)).not.toContain('taxrates.csv')
    expect(current.edition).toBe('2026-11-21')
    await bed.mirror.publish({ 'al-dor/taxrates.csv': text })
    const history = await loadFeed(AL, AL.feeds[0]!, await bed.context())
    expect(history.files.map((f) => f.name)).toContain('taxrates.csv')
    expect(history.jurisdictions).toEqual(current.jurisdictions.map((j) => ({ ...j, source: 'taxrates.csv' })))
    await bed.mirror.publish({ 'al-dor/taxrates_current.csv': '<!DOCTYPE html><html><head><title>Log In</title></head></html>' })
    await expect(fetchStateSources(AL, AL.feeds[0]!, await bed.context())).rejects.toThrow(/taxrates_current\.csv: the server answered an HTML page \("Log In"\)/)
  })
})

/** The local rates page as DOR links the file: from its uploads, beside the text "Updated for <Month> <YYYY>". */
const localRatesPage = (href: string) =>
  `<!DOCTYPE html><html><head><title>Local Cities and Counties Tax Rates Text File - Alabama Department of Revenue</title></head><body><h1>Local Cities and Counties Tax Rates Text File</h1><p>Updated for November 2026</p><p><a href="${href}">Tax Rates Text File</a></p><a href="/sales-use/state-sales-use-tax-rates/">State Sales and Use Tax Rates</a></body></html>`

describe('through the publisher replica, as production runs', () => {
  const HOST = new URL(AL_RATES_PAGE).host
  const fileUrl = new URL(`/wp-content/uploads/2026/11/${FILE}`, AL_RATES_PAGE).href
  const servePage = (replica: PublisherReplica) => replica.answer(AL_RATES_PAGE, { kind: 'page', html: localRatesPage(fileUrl) })

  it('finds taxrates_current.csv from the local rates page at www.revenue.alabama.gov through the proxy, and answers a Birmingham ZIP from it', async () => {
    const load = await loadFeedAtPublisher('AL', NOW, [HOST], async (replica) => {
      servePage(replica)
      await replica.serveBytes(fileUrl, alRateFile(counties))
    })
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ edition: NOW.slice(0, 10), request: { fileName: FILE, officialUrl: fileUrl } })
    expect(loaded.result.files.map((f) => f.url).filter((url) => url.startsWith('https:'))).toEqual([fileUrl])
    const birmingham = zipsWholly(loaded.result, '01073', placeNamed('Birmingham').geoid)
    expect(birmingham.length).toBeGreaterThan(0)
    expect(defaultCombinedRate(stateIndex('AL', loaded.result), birmingham[0]!, 'AL', NOW.slice(0, 10))).toBe(STATE_RATE + 1000 + 4500)
    expect(load.tunnels).toContain(HOST)
  }, 120_000)

  it('fails with a note naming the file when a sign-in page is answered with 200 in its place', async () => {
    const { outcome } = await loadFeedAtPublisher('AL', NOW, [HOST], (replica) => {
      servePage(replica)
      replica.answer(fileUrl, { kind: 'page', html: '<!DOCTYPE html><html><head><title>Log In ‹ Alabama Department of Revenue</title></head><body><form></form></body></html>' })
    })
    expect(outcome).toEqual({ error: expect.stringMatching(/taxrates_current\.csv: the server answered an HTML page \("Log In ‹ Alabama Department of Revenue"\) in place of the file/) })
  }, 120_000)
})
