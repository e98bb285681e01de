// New Mexico from TRD's GRT rates and boundaries CSV: the download built from the documented layout
// (support/nm-grt-fixture.ts), parsed by header name and compiled against the real NM geography;
// found from the data-download page's dataset titles through RGIS services.json, on a mirror served
// over loopback HTTP and, as production runs, through the publisher replica (real host names, a
// CONNECT proxy, a test CA) in a process of its own; put on trial against the real aggregator drop.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { NoFileForState } from '../pipeline/fetch/no-file-for-state.ts'
import { parseNmGrtFile } from '../pipeline/feeds/nm-trd-grt/rate-file.ts'
import { compileNmGrt } from '../pipeline/feeds/nm-trd-grt/compile.ts'
import { rgisServicesUrl } from '../pipeline/feeds/nm-trd-grt/links.ts'
import { compileState, fetchStateSources, loadFeed } from '../pipeline/run/load-state.ts'
import { judgeTrial } from '../pipeline/run/official-trial.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { NM_GRT_PAGE } from '../sources/descriptor.ts'
import NM from '../sources/nm.ts'
import { loadFeedProcess, withPublisherReplica } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import { nmDataDownloadPage, nmPeriodTitle } from './support/publisher-pages.ts'
import { NM_AIRPORT, NM_E5_TITLES, NM_HEADER, NM_LOCATIONS, NM_NOISY_RATE, NM_REMAINDER, NM_REMAINDER_OF, NM_STATE_PERCENT, nmGrtCsv, nmGrtRows, nmGrtZip, nmServicesJson, type NmRow } from './support/nm-grt-fixture.ts'

const FILE = 'grt_rates_boundaries.csv'
const NOW = '2026-11-21T03:00:00.000Z'
const TODAY = NOW.slice(0, 10)
/** A total percent of up to 4 decimals in 1e-5 units, half-up: the served precision. */
const units = (percent: string) => {
  const [whole, decimals = ''] = percent.split('.')
  return Math.floor((Number(whole) * 10_000 + Number(decimals.padEnd(4, '0')) + 5) / 10)
}
const STATE_RATE = units(NM_STATE_PERCENT)
const bed = feedTestBed('NM', NOW)
let geography: Geography
let rows: NmRow[]

beforeAll(() => {
  geography = bed.geography
  rows = nmGrtRows(bed.counties.map((c) => c.name))
})

const parse = (fileRows = rows, options: Parameters<typeof nmGrtCsv>[1] = {}) => parseNmGrtFile(nmGrtCsv(fileRows, options), FILE, STATE_RATE)
const compile = (fileRows = rows) => compileNmGrt({ file: parse(fileRows), stateRate: STATE_RATE, geography, edition: '2026-07-01' })
const indexOf = (result: FeedResult) => new RateIndex(writeRateIndex({ states: [{ code: 'NM', result }], zipMeta: () => undefined }))
const candidatesOf = (result: FeedResult, zip: string) => result.candidates.filter((c) => c.zip === zip)
const withRow = (code: string, change: Partial<NmRow>) => rows.map((r) => (r.code === code ? { ...r, ...change } : r))

describe('reading the GRT CSV', () => {
  it('reads one location per code (a location of several polygons once), by header name in any column order, behind a BOM alike', () => {
    const file = parse()
    expect(file.locations).toHaveLength(rows.length - 1)
    expect(file.rowsRead).toBe(rows.length)
    const reordered = parse(rows, { bom: true, header: [...NM_HEADER].reverse() })
    expect(reordered.locations.map(({ line, ...l }) => l)).toEqual(file.locations.map(({ line, ...l }) => l))
  })

  it('reads totals to 1/10000 of a percent, rounding half-up to the served 1e-5 and saying so; kinds from the name and the second code', () => {
    const { locations } = parse()
    const abq = locations.find((l) => l.code === NM_LOCATIONS.albuquerque.code)!
    expect(abq).toMatchObject({ rate: units('7.8125'), rounded: true, kind: 'municipality' })
    expect(locations.find((l) => l.code === NM_LOCATIONS.losAlamos.code)).toMatchObject({ rate: 7375, rounded: false })
    expect(locations.find((l) => l.code === NM_LOCATIONS.isleta.code)!.kind).toBe('tribal')
    expect(locations.filter((l) => l.kind === 'remainder')).toHaveLength(bed.counties.length - 1)
  })

  it('refuses a header lacking grt_rate, naming the row closest to it', () => {
    expect(() => parse(rows, { header: NM_HEADER.map((h) => (h === 'grt_rate' ? 'GRT_RATE_PCT' : h)) })).toThrow(/row 1 comes closest and lacks grt_rate: not the GRT rates and boundaries table, or its layout changed/)
  })

  it('sets aside, naming their lines, a rate of 100% or more, digits finer than 1/10000 of a percent that are no float noise, a code of another shape, and one code at two rates', () => {
    const file = parse([
      ...withRow(NM_LOCATIONS.lasCruces.code, { rate: '831.25' }),
      { name: 'Fine', county: 'Bernalillo', code: '02-990', rate: '7.812512' },
      { name: 'Odd', county: 'Bernalillo', code: '2-100', rate: '7.0000' },
      { ...NM_LOCATIONS.albuquerque, rate: '7.9375' },
    ])
    expect(file.setAside.count).toBe(4)
    const note = file.setAside.notes()[0]!
    expect(note).toMatch(/07-104 grt_rate 8\.31250 is 100% or more/)
    expect(note).toMatch(/02-990 grt_rate 7\.812512 has more decimals than the 4 its publisher prints, and they are not float noise/)
    expect(note).toMatch(/location code "2-100" is not NN-NNN/)
    expect(note).toMatch(/line \d+: 02-100 \(Albuquerque\) at 7\.938% in Bernalillo, line \d+ gives it 7\.813% in Bernalillo/)
  })

  it('E5 reads a total with float noise (7.81250000000001) as the total it stands for, rounded by the same rule', () => {
    const noisy = parse(withRow(NM_LOCATIONS.albuquerque.code, { rate: NM_NOISY_RATE }))
    expect(noisy.locations.find((l) => l.code === NM_LOCATIONS.albuquerque.code)).toMatchObject({ rate: units('7.8125'), rounded: true })
    expect(noisy.setAside.count).toBe(0)
    expect(parse(withRow(NM_LOCATIONS.albuquerque.code, { rate: '7.81249999999999' })).locations.find((l) => l.code === NM_LOCATIONS.albuquerque.code)!.rate).toBe(units('7.8125'))
  })

  it('decides the unit of grt_rate from the state rate: a file of fractions reads as the same totals, one fitting neither unit fails', () => {
    const fractions = rows.map((r) => ({ ...r, rate: (Number(r.rate) / 100).toFixed(6) }))
    expect(parse(fractions).locations.map((l) => [l.code, l.rate])).toEqual(parse().locations.map((l) => [l.code, l.rate]))
    expect(() => parse(rows.map((r) => ({ ...r, rate: String(Number(r.rate) * 1000) })))).toThrow(/the unit of its rates cannot be decided/)
  })
})

describe('compiling New Mexico', () => {
  it('answers a municipality with the state portion and its local remainder, never a county layer beside it: its total', () => {
    const result = compile()
    const index = indexOf(result)
    const [abq] = candidatesOf(result, '87102')
    expect(abq!.stack.map((ref) => ref.level)).toEqual(['state', 'city'])
    expect(result.jurisdictions.find((j) => j.level === 'state')!.rate).toBe(STATE_RATE)
    expect(defaultCombinedRate(index, '87102', 'NM', TODAY)).toBe(units(NM_LOCATIONS.albuquerque.rate))
    expect(defaultCombinedRate(index, '88001', 'NM', TODAY)).toBe(units(NM_LOCATIONS.lasCruces.rate))
  })

  it('answers outside municipalities by the county remainder, and a ZIP spanning locations by candidates with shares', () => {
    const result = compile()
    const index = indexOf(result)
    const outside = [...new Set(result.candidates.filter((c) => c.countyFips === '35001' && c.placeFips === null).map((c) => c.zip))].filter((zip) => candidatesOf(result, zip).length === 1)
    expect(outside.length).toBeGreaterThan(0)
    for (const zip of outside) expect(defaultCombinedRate(index, zip, 'NM', TODAY), zip).toBe(units(NM_REMAINDER_OF.Bernalillo!))
    const rioRancho = candidatesOf(result, '87124')
    expect(rioRancho.map((c) => [c.countyFips, c.placeName, c.stack.map((r) => r.code)])).toEqual([
      ['35043', 'Rio Rancho', ['35', NM_LOCATIONS.rioRanchoSandoval.code]],
      ['35001', '', ['35', '001']],
    ])
    expect(rioRancho[0]!.weight).toBeGreaterThan(0.99)
    expect(defaultCombinedRate(index, '87124', 'NM', TODAY)).toBe(units(NM_LOCATIONS.rioRanchoSandoval.rate))
    // "Town of Bernalillo" is the Census place Bernalillo, in Sandoval County
    expect(defaultCombinedRate(index, '87004', 'NM', TODAY)).toBe(units(NM_LOCATIONS.bernalilloTown.rate))
    expect(result.jurisdictions.find((j) => j.level === 'county' && j.code === '045')!.rate).toBe(units(NM_REMAINDER) - STATE_RATE)
  })

  it('answers Los Alamos, a county with no remainder row, by the least total of its locations, disclosed as a lower bound', () => {
    const result = compile()
    expect(result.rateVaries).toEqual([expect.objectContaining({ level: 'county', code: '028', lower_bound: true, basis: expect.stringMatching(/no "Remainder of County" row/) })])
    expect(defaultCombinedRate(indexOf(result), '87544', 'NM', TODAY)).toBe(units(NM_LOCATIONS.losAlamos.rate))
  })

  it('lists tribal locations and a code that binds to no place as unplaced, never summed into a ZIP', () => {
    const result = compile()
    expect(result.unplaced.find((u) => u.code === NM_LOCATIONS.isleta.code)).toMatchObject({ level: 'district', rate: units('7.0000') - STATE_RATE, counties: ['35001'], reason: expect.stringMatching(/tribal location/) })
    expect(result.unplaced.find((u) => u.code === NM_LOCATIONS.nowhere.code)).toMatchObject({ level: 'city', counties: ['35049'], reason: '01-999 binds to no Census place named Atlantis in Santa Fe' })
    const stacked = new Set(result.candidates.flatMap((c) => c.stack.map((r) => r.code)))
    expect(stacked.has(NM_LOCATIONS.isleta.code) || stacked.has(NM_LOCATIONS.nowhere.code)).toBe(false)
    expect(result.notes.join(' ')).toMatch(/location totals printed to 1\/10000 of a percent \(float noise past it dropped\) were rounded half-up/)
  })

  it('refuses a file missing a county; sets aside a county that binds to no county; lists a second code naming one place at another rate as unplaced', () => {
    expect(() => compile(rows.filter((r) => r.county !== 'Catron'))).toThrow(new RegExp(`: 1 of ${bed.counties.length} New Mexico counties of the geography not listed \\(Catron \\(35003\\)\\): the file is incomplete`))
    const gotham = compile([...rows, { name: 'Gotham', county: 'Gotham', code: '99-100', rate: '8.0000' }])
    expect(gotham.notes.join(' ')).toMatch(/1 row\(s\) set aside.*county "Gotham" of 99-100 \(Gotham\) binds to no New Mexico county of the geography/)
    expect(gotham.leftOut?.[0]).toMatchObject({ kind: 'rows set aside', count: 1 })
    const twice = compile([...rows, { name: 'Bernalillo', county: 'Sandoval', code: '29-120', rate: '8.0000' }])
    expect(twice.unplaced.find((u) => u.code === '29-120')).toMatchObject({ level: 'city', counties: ['35043'], reason: expect.stringMatching(/names Bernalillo in Sandoval as 29-119 \(Town of Bernalillo\) does, at 0\.08000 against 0\.07938/) })
  })

  it('E5\'s GIS digits past the 4th decimal that are no float noise, in the remainder rows of Catron (its only row) and Doña Ana: each set aside and named, outside places both answering the state portion alone (never the least of their totals), Las Cruces its own total, every other county served', () => {
    // digits past 1/10000 of a percent that are neither all zeros nor all nines (E5's noise is 7.81250000000001)
    const noisy = (rate: string) => `${rate}12`
    const catron = rows.find((r) => r.name === 'Remainder of County - Catron')!
    const donaAna = rows.find((r) => r.name === 'Remainder of County - Doña Ana')!
    expect(rows.filter((r) => r.county === 'Catron')).toEqual([catron])
    const result = compile(rows.map((r) => (r === catron || r === donaAna ? { ...r, rate: noisy(r.rate) } : r)))
    const line = (row: NmRow) => rows.indexOf(row) + 2
    expect(result.notes.find((n) => n.includes('set aside, their taxes left out'))).toMatch(new RegExp(`^${FILE}: 2 row\\(s\\) set aside, their taxes left out of every answer \\(line ${line(catron)}: ${catron.code} grt_rate .+; line ${line(donaAna)}: ${donaAna.code} grt_rate .+\\)$`))
    expect(result.notes).toContain("2 New Mexico counties have no layer of their own, the rows rating them set aside (Catron (35003), Dona Ana (35013)): outside any place rated apart, the state's layer alone answers there")
    expect(result.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 2 })])
    expect(result.jurisdictions.filter((j) => j.level === 'county' && (j.code === '003' || j.code === '013'))).toEqual([])
    expect(result.rateVaries!.map((v) => v.code)).toEqual(['028'])
    const index = indexOf(result)
    for (const county of ['35003', '35013']) {
      const outside = result.candidates.filter((c) => c.countyFips === county && c.placeFips === null)
      expect(outside.length, county).toBeGreaterThan(0)
      for (const c of outside) expect(c.stack).toEqual([{ level: 'state', code: '35' }])
    }
    const lasCruces = result.candidates.filter((c) => c.countyFips === '35013' && c.placeFips !== null)
    expect(lasCruces.length).toBeGreaterThan(0)
    for (const c of lasCruces) expect(c.stack).toEqual([{ level: 'state', code: '35' }, { level: 'city', code: NM_LOCATIONS.lasCruces.code }])
    expect(defaultCombinedRate(index, '87102', 'NM', TODAY)).toBe(units(NM_LOCATIONS.albuquerque.rate))
    expect(result.jurisdictions.find((j) => j.level === 'county' && j.code === '045')!.rate).toBe(units(NM_REMAINDER) - STATE_RATE)
  })

  it('E5 lists a special district printing less than the state rate as unplaced in its county, and serves the file', () => {
    const result = compile([...rows, NM_AIRPORT])
    expect(result.unplaced.find((u) => u.code === NM_AIRPORT.code)).toMatchObject({ level: 'district', rate: units(NM_AIRPORT.rate), counties: ['35001'], reason: expect.stringMatching(/below the 0\.04875 state portion/) })
    expect(result.candidates.some((c) => c.stack.some((ref) => ref.code === NM_AIRPORT.code))).toBe(false)
    expect(defaultCombinedRate(indexOf(result), '87102', 'NM', TODAY)).toBe(units(NM_LOCATIONS.albuquerque.rate))
    expect(result.notes.join(' ')).toMatch(/1 special-district rows print a figure below the state portion/)
  })
})

const DATASETS = { h1: 'a1b2c3d4-0000-4000-8000-000000002026', h2: 'a1b2c3d4-0000-4000-8000-0000000026b2', next: 'a1b2c3d4-0000-4000-8000-000000002027' }
const CSV_NAME = 'grt_rates_boundaries.derived.zip'
const csvUrl = (uuid: string, name = CSV_NAME) => `https://gstore.unm.edu/apps/rgis/datasets/${uuid}/${name}`
const PAGE = nmDataDownloadPage([
  { uuid: DATASETS.next, title: nmPeriodTitle(2027, 1) },
  { uuid: DATASETS.h2, title: nmPeriodTitle(2026, 2) },
  { uuid: DATASETS.h1, title: nmPeriodTitle(2026, 1) },
])
const mirrorFiles = (files: Record<string, string | Buffer>) => Object.fromEntries(Object.entries(files).map(([name, body]) => [`nm-trd-grt/${name}`, body]))

describe('finding the GRT CSV', () => {
  it('takes the dataset of the newest half-year begun by its title, holding a later one, its CSV found through services.json', async () => {
    await bed.mirror.publish(mirrorFiles({ 'data-download.html': PAGE, [`services-${DATASETS.h2}.json`]: nmServicesJson(DATASETS.h2, csvUrl(DATASETS.h2)), [CSV_NAME]: nmGrtZip(nmGrtCsv(rows)) }))
    const sources = await fetchStateSources(NM, NM.feeds[0]!, await bed.context())
    expect(sources.choices[0]).toMatchObject({ edition: '2026-07-01', request: { fileName: CSV_NAME, officialUrl: csvUrl(DATASETS.h2) } })
    expect(sources.choices[0]!.how).toMatch(/"Gross Receipts Tax Rates and Boundaries: July 1, 2026 to December 31, 2026" \(RGIS dataset .*0026b2\), the newest of 3 GRT dataset\(s\).*held until their half-year: "Gross Receipts Tax Rates and Boundaries: January 1, 2027 to June 30, 2027"/)
    const loaded = await loadFeed(NM, NM.feeds[0]!, await bed.context())
    expect(loaded).toMatchObject({ edition: '2026-07-01', effectiveDateBasis: 'edition_only' })
    expect(loaded.files.map((f) => f.name)).toContain(CSV_NAME)
    expect(loaded.notes[0]).toMatch(/^NM model: grt_rates_boundaries\.derived\.zip:grt_rates_boundaries\.csv, /)
  })

  it('is on trial against the aggregator: held back while it disagrees on more ZIPs than the limit, serving once the operator accepts it', async () => {
    const context = await bed.context()
    const sources = await fetchStateSources(NM, NM.feeds[0]!, context)
    const result = await compileState(NM, NM.feeds[0]!, sources, context)
    const trial = (acceptOfficial: string[]) => judgeTrial({ descriptor: NM, feed: NM.feeds[0]!, inService: null, result, index: indexOf(result), sources, geography, asOf: TODAY, settings: { trialDisagreementLimit: 0.4, acceptOfficial } })
    const held = trial([])
    expect(held.held).toMatch(/^nm-trd-grt on trial held back, the aggregator keeps serving: nm-trd-grt 2026-07-01 against aggregator edition 202512 on 2026-11-21: \d+ of \d+ ZIPs disagree .*TAXATLAS_ACCEPT_OFFICIAL=NM/)
    expect(held.trial!.disagreement_share).toBeGreaterThan(0.4)
    const accepted = trial(['NM'])
    expect(accepted.held).toBeNull()
    expect(accepted.trial).toMatchObject({ accepted: true, aggregator_edition: '202512' })
  })

  it('E5 finds the dataset by any of the ways its title writes the period', async () => {
    for (const title of NM_E5_TITLES) {
      await bed.mirror.publish(mirrorFiles({ 'data-download.html': nmDataDownloadPage([{ uuid: DATASETS.h2, title }, { uuid: DATASETS.h1, title: nmPeriodTitle(2026, 1) }]), [`services-${DATASETS.h2}.json`]: nmServicesJson(DATASETS.h2, csvUrl(DATASETS.h2)), [CSV_NAME]: nmGrtZip(nmGrtCsv(rows)) }))
      const sources = await fetchStateSources(NM, NM.feeds[0]!, await bed.context())
      expect(sources.choices[0], title).toMatchObject({ edition: '2026-07-01', request: { officialUrl: csvUrl(DATASETS.h2) } })
    }
  })

  it('holds a page linking only a half-year not yet begun; fails on a page whose titles lost their period, and on a pin it cannot fetch by name', async () => {
    await bed.mirror.publish(mirrorFiles({ 'data-download.html': nmDataDownloadPage([{ uuid: DATASETS.next, title: nmPeriodTitle(2027, 1) }]) }))
    await expect(fetchStateSources(NM, NM.feeds[0]!, await bed.context())).rejects.toThrow(/links only GRT datasets of half-years not yet begun \("Gross Receipts Tax Rates and Boundaries: January 1, 2027 to June 30, 2027"\); held until then/)
    await bed.mirror.publish(mirrorFiles({ 'data-download.html': nmDataDownloadPage([{ uuid: DATASETS.h2, title: 'GRT Rates and Boundaries (current)' }]) }))
    await expect(fetchStateSources(NM, NM.feeds[0]!, await bed.context())).rejects.toThrow(/links no dataset titled "Gross Receipts Tax Rates and Boundaries: <period>": its layout changed/)
    await expect(fetchStateSources(NM, NM.feeds[0]!, await bed.context({ TAXATLAS_PIN: `NM=${CSV_NAME}` }))).rejects.toThrow(/TAXATLAS_PIN names grt_rates_boundaries\.derived\.zip for NM, which none of its feeds \(nm-trd-grt, avalara-zip5, statute-table\) publishes/)
  })

  it('fails on services.json without a csv download, on a sign-in page in its place or in the data file\'s; has no file on a mirror without the page', async () => {
    const page = { 'data-download.html': PAGE }
    await bed.mirror.publish(mirrorFiles({ ...page, [`services-${DATASETS.h2}.json`]: nmServicesJson(DATASETS.h2, null) }))
    await expect(fetchStateSources(NM, NM.feeds[0]!, await bed.context())).rejects.toThrow(/services\.json: its downloads offer no csv \(only shp, kml\)/)
    const signIn = '<!DOCTYPE html><html><head><title>Sign In</title></head><body><form></form></body></html>'
    await bed.mirror.publish(mirrorFiles({ ...page, [`services-${DATASETS.h2}.json`]: signIn }))
    await expect(fetchStateSources(NM, NM.feeds[0]!, await bed.context())).rejects.toThrow(/services\.json: not JSON, the server answered an HTML page \("Sign In"\)/)
    await bed.mirror.publish(mirrorFiles({ ...page, [`services-${DATASETS.h2}.json`]: nmServicesJson(DATASETS.h2, csvUrl(DATASETS.h2)), [CSV_NAME]: signIn }))
    await expect(fetchStateSources(NM, NM.feeds[0]!, await bed.context())).rejects.toThrow(/grt_rates_boundaries\.derived\.zip: the server answered an HTML page \("Sign In"\)/)
    await bed.mirror.publish({})
    await expect(fetchStateSources(NM, NM.feeds[0]!, await bed.context())).rejects.toBeInstanceOf(NoFileForState)
  })
})

describe('through the publisher replica, as production runs', () => {
  it('finds the page at TRD, the dataset at RGIS and the CSV at gstore through the proxy; a sign-in page for the CSV fails the feed', async () => {
    await withPublisherReplica(['www.tax.newmexico.gov', 'gstore.unm.edu'], async (replica, dir) => {
      // gstore names the csv download .csv; its body is the ZIP of the CSV and its XML
      const download = csvUrl(DATASETS.h2, 'grt_rates_boundaries.derived.csv')
      const zip = path.join(dir, 'download.zip')
      // the real shapes of E5: a title dating the half-year another way, a total with float noise, an airport district below the state rate
      await writeFile(zip, nmGrtZip(nmGrtCsv([...withRow(NM_LOCATIONS.albuquerque.code, { rate: NM_NOISY_RATE }), NM_AIRPORT], { bom: true })))
      replica.answer(NM_GRT_PAGE, { kind: 'page', html: nmDataDownloadPage([{ uuid: DATASETS.next, title: nmPeriodTitle(2027, 1) }, { uuid: DATASETS.h2, title: NM_E5_TITLES[0]! }, { uuid: DATASETS.h1, title: nmPeriodTitle(2026, 1) }]) })
      replica.answer(rgisServicesUrl(DATASETS.h2), { kind: 'page', html: nmServicesJson(DATASETS.h2, download) })
      replica.answer(download, { kind: 'file', file: zip })
      const loaded = await loadFeedProcess('NM', NOW, dir, replica.env)
      if ('error' in loaded) throw new Error(loaded.error)
      expect(loaded.choices[0]).toMatchObject({ edition: '2026-07-01', request: { officialUrl: download } })
      // downloaded over HTTPS: the CSV alone (the aggregator drop that places ZIPs the geography lacks is read from TAXATLAS_DROPS)
      expect(loaded.result.files.map((f) => f.url).filter((url) => url.startsWith('https:'))).toEqual([download])
      expect(defaultCombinedRate(indexOf(loaded.result), '87102', 'NM', TODAY)).toBe(units(NM_LOCATIONS.albuquerque.rate))
      expect(new Set(replica.proxy.tunnels.map((t) => t.replace(/:443$/, '')))).toEqual(new Set(['www.tax.newmexico.gov', 'gstore.unm.edu']))
      replica.answer(download, { kind: 'page', html: '<!DOCTYPE html><html><head><title>UNM Sign In</title></head></html>' })
      const refused = await loadFeedProcess('NM', NOW, dir, replica.env)
      expect(refused).toEqual({ error: expect.stringMatching(/grt_rates_boundaries\.derived\.csv: the server answered an HTML page \("UNM Sign In"\) in place of the file/) })
    })
  }, 120_000)
})
