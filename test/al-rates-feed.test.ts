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
import { AL_E4, AL_HEADER, alRateFile } from './support/al-rate-fixture.ts'
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

  it('reads a header below a title line, and with its cells respaced (PJ Rate, Locality code)', () => {
    const file = parseAlRateFile(alRateFile(counties), FILE)
    expect(parseAlRateFile(`Local Tax Rates\r\n${alRateFile(counties)}`, FILE).rows.map(({ line, ...r }) => r)).toEqual(file.rows.map(({ line, ...r }) => r))
    const respaced = alRateFile(counties).replace('PJ_Rate', 'PJ Rate').replace('Locality Code', 'LOCALITY CODE').replace('TaxType', 'Tax Type')
    expect(parseAlRateFile(respaced, FILE).rows).toEqual(file.rows)
  })

  it('sets aside dates of another form and a rate of 100% or more, naming their lines; fails a Rate column of fractions', () => {
    const edited = parseAlRateFile(alRateFile(counties, { edit: (r) => (r['Locality Code'] === '9002' ? { ...r, 'Active Date': '1/1/2020' } : r['Locality Code'] === '9003' ? { ...r, Rate: '125.0000' } : r) }), FILE)
    expect(edited.setAside.notes()[0]).toMatch(/2 row\(s\) set aside.*line \d+: 9002 dates 1\/1\/2020– are not YYYYMMDD; line \d+: 9003 Rate 1\.25000 is 100% or more/)
    expect(() => parseAlRateFile(alRateFile(counties, { edit: (r) => ({ ...r, Rate: String(Number(r.Rate) / 100) }) }), FILE)).toThrow(/no Rate reaches 0\.1%: the column holds fractions/)
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

  it('holds a file whose every row takes effect after today; sets aside a county locality that binds to no county; refuses a file missing a county', () => {
    expect(() => compile(alRateFile(counties, { edit: (r) => ({ ...r, 'Active Date': '20270101', 'Inactive Date': '' }) }))).toThrow(/no general sales row is active on or before 2026-11-21: a file of rates not yet in force; held until then/)
    const atlantis = compile(alRateFile([...counties, 'Atlantis']))
    expect(atlantis.notes.join(' ')).toMatch(/1 row\(s\) set aside.*county locality 7068 ATLANTIS COUNTY binds to no Alabama county/)
    expect(atlantis.leftOut?.[0]).toMatchObject({ kind: 'rows set aside', count: 1 })
    expect(() => compile(alRateFile(counties.filter((c) => c !== 'Autauga')))).toThrow(new RegExp(`: 1 of ${counties.length} Alabama counties of the geography not listed \\(Autauga \\(01001\\)\\): the file is incomplete`))
  })

  it('sets aside a county\'s only locality row whose Active Date is not the documented YYYYMMDD, naming it: that county answers the state rate alone, every other county and city served', () => {
    const text = alRateFile(counties, { edit: (r) => (r['Locality Name'] === 'AUTAUGA COUNTY' ? { ...r, 'Active Date': '1/1/2020' } : r) })
    const line = text.split('\r\n').findIndex((l) => l.startsWith('7001,AUTAUGA COUNTY,')) + 1
    const result = compile(text)
    expect(result.notes).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (line ${line}: 7001 dates 1/1/2020– are not YYYYMMDD)`)
    expect(result.notes).toContain("1 Alabama counties have no layer of their own, the rows rating them set aside (Autauga (01001)): outside any place rated apart, the state's layer alone answers there")
    expect(result.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 1 })])
    expect(result.jurisdictions.filter((j) => j.level === 'county' && j.code === '001')).toEqual([])
    const index = stateIndex('AL', result)
    const autauga = result.candidates.filter((c) => c.countyFips === '01001')
    expect(autauga.length).toBeGreaterThan(0)
    for (const c of autauga) expect(c.stack).toEqual([{ level: 'state', code: '01' }])
    for (const zip of zipsWholly(result, '01001', null)) expect(defaultCombinedRate(index, zip, 'AL', '2026-11-21')).toBe(STATE_RATE)
    const birmingham = zipsWholly(result, '01073', placeNamed('Birmingham').geoid)
    expect(birmingham.length).toBeGreaterThan(0)
    for (const zip of birmingham) expect(defaultCombinedRate(index, zip, 'AL', '2026-11-21')).toBe(STATE_RATE + 1000 + 4500)
    for (const zip of zipsWholly(result, '01073', null)) expect(defaultCombinedRate(index, zip, 'AL', '2026-11-21')).toBe(STATE_RATE + 1000)
  })

  describe('E4: county localities by zone', () => {
    let result: ReturnType<typeof compile>
    let index: RateIndex
    const fips = (name: string) => bed.counties.find((c) => c.name === name)!.fips
    const rateOf = (zip: string) => defaultCombinedRate(index, zip, 'AL', '2026-11-21')
    const pct = (text: string) => Math.round(Number(text) * 1000)
    beforeAll(() => {
      result = compile(alRateFile(counties, { e4: true }))
      index = new RateIndex(writeRateIndex({ states: [{ code: 'AL', result }], zipMeta: () => undefined }))
    })

    it('Pike, with only CL TROY and EXC CL TROY: Troy answers its city and the CL TROY tax, the rest of Pike the EXC CL TROY tax, no county layer', () => {
      const pike = result.candidates.filter((c) => c.countyFips === fips('Pike'))
      const troy = pike.filter((c) => c.placeFips === placeNamed('Troy').geoid)
      const outside = pike.filter((c) => c.placeFips === null)
      expect(troy.length).toBeGreaterThan(0)
      expect(outside.length).toBeGreaterThan(0)
      for (const c of troy) expect(c.stack.map((ref) => ref.code), c.zip).toEqual(['01', '9101', '7804'])
      for (const c of outside) expect(c.stack.map((ref) => ref.code), c.zip).toEqual(['01', '7805'])
      const wholly = zipsWholly(result, fips('Pike'), null)
      for (const zip of wholly) expect(rateOf(zip), zip).toBe(STATE_RATE + pct(AL_E4.Pike!.localities[1]![2]))
    })

    it('Morgan, with only UNINCORP AREAS and CL: Decatur answers the CL tax, land outside cities the UNINCORP tax', () => {
      const decatur = zipsWholly(result, fips('Morgan'), placeNamed('Decatur').geoid)
      const outside = zipsWholly(result, fips('Morgan'), null)
      expect(decatur.length).toBeGreaterThan(0)
      for (const zip of decatur) expect(rateOf(zip), zip).toBe(STATE_RATE + 4000 + pct('1.5000'))
      for (const zip of outside) expect(rateOf(zip), zip).toBe(STATE_RATE + pct('2.0000'))
    })

    it('Madison, with only a COUNTY-WIDE TAX row: its county layer everywhere, Huntsville\'s city tax above it', () => {
      const huntsville = zipsWholly(result, fips('Madison'), placeNamed('Huntsville').geoid)
      const outside = zipsWholly(result, fips('Madison'), null)
      for (const zip of huntsville) expect(rateOf(zip), zip).toBe(STATE_RATE + pct('0.5000') + 4500)
      for (const zip of outside) expect(rateOf(zip), zip).toBe(STATE_RATE + pct('0.5000'))
      expect(result.jurisdictions.find((j) => j.level === 'county' && j.code === fips('Madison').slice(2))).toMatchObject({ rate: 500, name: 'Madison' })
    })

    it('Madison\'s only county locality (COUNTY-WIDE TAX) set aside, its Active Date not YYYYMMDD: Madison answers the state rate alone outside Huntsville, Huntsville (its County Code that locality\'s) state and city', () => {
      const odd = compile(alRateFile(counties, { e4: true, edit: (r) => (r['Locality Code'] === '7801' ? { ...r, 'Active Date': '1/1/2020' } : r) }))
      expect(odd.notes).toContain("1 Alabama counties have no layer of their own, the rows rating them set aside (Madison (01089)): outside any place rated apart, the state's layer alone answers there")
      expect(odd.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 1 })])
      const oddIndex = stateIndex('AL', odd)
      const huntsville = zipsWholly(odd, fips('Madison'), placeNamed('Huntsville').geoid)
      const outside = zipsWholly(odd, fips('Madison'), null)
      expect(huntsville.length).toBeGreaterThan(0)
      expect(outside.length).toBeGreaterThan(0)
      for (const zip of huntsville) expect(defaultCombinedRate(oddIndex, zip, 'AL', '2026-11-21'), zip).toBe(STATE_RATE + 4500)
      for (const zip of outside) expect(defaultCombinedRate(oddIndex, zip, 'AL', '2026-11-21'), zip).toBe(STATE_RATE)
      expect(odd.unplaced.find((u) => u.code === '9103')).toBeUndefined()
    })

    it('Mobile\'s CL tax answers inside Mobile only, above the plain county row', () => {
      const mobile = zipsWholly(result, fips('Mobile'), placeNamed('Mobile').geoid)
      const outside = zipsWholly(result, fips('Mobile'), null)
      for (const zip of mobile) expect(rateOf(zip), zip).toBe(STATE_RATE + 1000 + 5000 + pct('0.5000'))
      for (const zip of outside) expect(rateOf(zip), zip).toBe(STATE_RATE + 1000)
    })

    it('PJ, CL 4 CITIES, EDUCATION and UNABATED localities are listed as unplaced in their counties, never summed into a ZIP', () => {
      for (const [county, code] of [['Russell', '7809'], ['Chilton', '7807'], ['Jefferson', '7806'], ['Baldwin', '7810']] as const) {
        expect(result.unplaced.find((u) => u.code === code), code).toMatchObject({ level: 'district', counties: [fips(county)] })
        expect(result.candidates.some((c) => c.stack.some((ref) => ref.code === code))).toBe(false)
      }
      expect(result.notes[0]).toMatch(/county localities by the zone their name says \(\(plain\) \d+, CL 2, CL 4 CITIES 1, CL TROY 1, COUNTY-WIDE TAX 1, EDUCATION 1, EXC CL TROY 1, PJ 1, UNABATED 1, UNINCORP AREAS 1\)/)
      expect(result.notes.join(' ')).toMatch(/2 counties have no plain or county-wide locality, only localities of some zones: (Morgan, Pike|Pike, Morgan)/)
    })
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

  it('finds taxrates_current.csv from the local rates page at www.revenue.alabama.gov through the proxy, and answers a Birmingham ZIP from it (county localities in the shapes of E4)', async () => {
    const load = await loadFeedAtPublisher('AL', NOW, [HOST], async (replica) => {
      servePage(replica)
      await replica.serveBytes(fileUrl, alRateFile(counties, { e4: true }))
    })
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ edition: NOW.slice(0, 10), request: { fileName: FILE, officialUrl: fileUrl } })
    expect(loaded.result.files.map((f) => f.url).filter((url) => url.startsWith('https:'))).toEqual([fileUrl])
    const birmingham = zipsWholly(loaded.result, '01073', placeNamed('Birmingham').geoid)
    expect(birmingham.length).toBeGreaterThan(0)
    expect(defaultCombinedRate(stateIndex('AL', loaded.result), birmingham[0]!, 'AL', NOW.slice(0, 10))).toBe(STATE_RATE + 1000 + 4500)
    const troy = loaded.result.candidates.filter((c) => c.placeName === 'Troy')
    expect(troy.length).toBeGreaterThan(0)
    for (const c of troy) expect(c.stack.map((ref) => ref.code)).toContain('7804')
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
