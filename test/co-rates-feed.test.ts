// Colorado from DOR's DR 1002 workbook: a workbook built from the documented layout
// (support/co-rate-fixture.ts), parsed by header name and compiled against the real CO geography;
// found on a mirror served over loopback HTTP from the rates page by its links' half-year text, and
// at tax.colorado.gov itself through the publisher replica (real host name, CONNECT proxy, a
// firewall refusing clients that are not browsers); the trial against the real Colorado aggregator
// drop judged.
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ProxyAgent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCoRateWorkbook } from '../pipeline/feeds/co-dor/workbook.ts'
import { compileCoRates } from '../pipeline/feeds/co-dor/compile.ts'
import { NoFileForState } from '../pipeline/fetch/no-file-for-state.ts'
import { compileState, fetchStateSources, loadFeed } from '../pipeline/run/load-state.ts'
import { judgeTrial } from '../pipeline/run/official-trial.ts'
import { defaultCombinedRate, withholdViolations } from '../pipeline/run/validate-state.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import CO from '../sources/co.ts'
import { CO_RATES_PAGE } from '../sources/descriptor.ts'
import { AURORA, BOULDER_CITY, CO_COUNTY, CO_STATE, coRateWorkbook, coRows, DENVER_CITY, ratesAsFractions, type CoRow, type CoWorkbookOptions } from './support/co-rate-fixture.ts'
import { stateIndex, units, zipsWholly } from './support/feed-answers.ts'
import { feedTestBed } from './support/load-context.ts'
import { coRatesPageHtml } from './support/publisher-pages.ts'
import { startPublisherReplica, type PublisherReplica } from './support/publisher-replica.ts'
import { scriptProcessWithOnly, tempDir } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'

const FILE = 'Colorado_Jurisdiction_Codes_Rates_July-Dec2026.xlsx'
const OFFICIAL = CO.feeds[0]!
const NOW = '2026-11-21T03:00:00.000Z'
const STATE_RATE = 2900
const METRO = 1.1
const bed = feedTestBed('CO', NOW)
let geography: Geography
let rows: CoRow[]

beforeAll(() => {
  geography = bed.geography
  rows = coRows(bed.counties)
})

const parse = async (workbookRows = rows, options: CoWorkbookOptions = {}) => parseCoRateWorkbook(await coRateWorkbook(workbookRows, options), FILE, STATE_RATE)
const compile = async (workbookRows = rows, options: CoWorkbookOptions = {}) => compileCoRates({ workbook: await parse(workbookRows, options), stateRate: STATE_RATE, geography, edition: '2026-07-01' })
const indexOf = (result: FeedResult) => stateIndex('CO', result)
/** The combined rate of each candidate of a ZIP, in 1e-5 units. */
const candidateTotals = (result: FeedResult, zip: string) => {
  const rate = new Map(result.jurisdictions.map((j) => [`${j.level}|${j.code}`, j.rate]))
  return result.candidates.filter((c) => c.zip === zip).map((c) => c.stack.reduce((sum, ref) => sum + rate.get(`${ref.level}|${ref.code}`)!, 0))
}

describe('reading the DR 1002 workbook', () => {
  it('reads the "By Name" sheet below its header, and below a header moved further down alike', async () => {
    const workbook = await parse()
    expect(workbook.rows).toHaveLength(rows.length)
    expect(workbook.rows[0]!.row).toBe(5)
    expect((await parse(rows, { titleRows: 8 })).rows).toEqual(workbook.rows.map((r) => ({ ...r, row: r.row + 6 })))
    expect(workbook.rows.find((r) => r.code === '005005')).toMatchObject({ name: 'Aurora', county: 'Arapahoe', selfCollected: false, taxes: [{ type: 'State', rate: 2900 }, { type: 'County', rate: 250 }, { type: 'City', rate: 3750 }, { type: 'RTD', rate: 1000 }, { type: 'CD', rate: 100 }, { type: 'LID', rate: 500 }] })
    expect(workbook.rows.find((r) => r.name === 'Boulder')!.selfCollected).toBe(true)
  })

  it('reads a triple\'s tax from a Tax Type column or from its own header (both unconfirmed), and rates as percent numbers, fractions or % strings, to the same rows', async () => {
    const workbook = await parse()
    expect(workbook.unit).toBe('percent')
    expect((await parse(rows, { triples: 'type-header' })).rows).toEqual(workbook.rows)
    expect((await parse(rows, { form: 'fraction' })).rows).toEqual(workbook.rows)
    expect((await parse(rows, { form: 'fraction' })).unit).toBe('fraction')
    expect((await parse(rows, { form: 'percent', triples: 'type-header' })).rows).toEqual(workbook.rows)
  })

  it('E3 reads percent numbers by the unit the State cells decide (2.9 is the state rate as a percent): CD\'s 0.1 is a tenth of a percent, not 10%', async () => {
    const aurora = (await parse()).rows.find((r) => r.code === '001004')!
    expect(aurora.taxes.find((t) => t.type === 'CD')!.rate).toBe(100)
    expect(aurora.taxes.find((t) => t.type === 'State')!.rate).toBe(STATE_RATE)
  })

  it('E3 reads the home-rule cell as text: Self-Collected or blank, and Y/N alike', async () => {
    const workbook = await parse()
    expect(workbook.rows.filter((r) => r.selfCollected).map((r) => r.name).sort()).toEqual(['Boulder', 'Broomfield', 'Denver'])
    expect((await parse(rows, { homeRule: 'yes-no' })).rows).toEqual(workbook.rows)
    const odd = rows.map((r) => (r.name === 'Boulder' ? { ...r, selfCollected: true } : r))
    const workbookRows = (await parse(odd)).rows
    expect(workbookRows.find((r) => r.name === 'Boulder')!.selfCollected).toBe(true)
  })

  it('never reads the merged Total Rate column, whose figures lag the rates', async () => {
    const aurora = (await parse()).rows.find((r) => r.code === '001004')!
    expect(aurora.taxes.reduce((sum, t) => sum + t.rate, 0)).toBe(units(CO_STATE, AURORA.adams, AURORA.city, METRO))
  })

  it('reads a code the spreadsheet stored as a number, its leading zeros restored', async () => {
    const numeric = rows.map((r) => (r.code === '001004' ? { ...r, code: 1004 } : r))
    expect((await parse(numeric)).rows.find((r) => r.name === 'Aurora')!.code).toBe('001004')
  })

  it('refuses a header moved out of reach or lacking a column, a workbook without its By Name sheet, and rates no unit reads the state rate from', async () => {
    await expect(parse(rows, { titleRows: 20 })).rejects.toThrow(/no header row naming "Location Code", "Jurisdiction Code", "County", "Self Collected Home Rule" in its first 15 rows/)
    await expect(parse(rows, { header: ['Location Code', 'Jurisdiction Code', 'Self Collected Home Rule'] })).rejects.toThrow(/row 4 comes closest and lacks County/)
    await expect(parse(rows, { sheet: 'Sheet1' })).rejects.toThrow(/no sheet named "By Name" \(its sheets: "Sheet1", "By Juris Codes"/)
    const hundredfold = rows.map((r) => ({ ...r, taxes: r.taxes.map((t) => ({ ...t, rate: t.rate * 100 })) }))
    await expect(parse(hundredfold)).rejects.toThrow(/the unit of its rates cannot be decided: of \d+ figures .* where one reads as the 0\.02900 state rate/)
  })

  it('sets aside a code of another shape and a row whose State cell is not the state rate, naming their rows', async () => {
    const odd = [...rows, { ...rows[0]!, code: '12345X' }, { ...rows[1]!, code: '199999', taxes: [{ type: 'State', rate: 3.9 }] }]
    const workbook = await parse(odd)
    expect(workbook.rows).toHaveLength(rows.length)
    expect(workbook.setAside.notes()[0]).toMatch(/2 row\(s\) set aside.*Jurisdiction Code "12345X" of Unincorporated Adams County is not 6 digits; row \d+: 199999 \(.*\) prints the state rate 0\.03900/)
  })
})

describe('compiling Colorado', () => {
  it('answers a city with state, county, city and its districts; outside places, state and county', async () => {
    const result = await compile()
    const index = indexOf(result)
    const denver = zipsWholly(result, '08031', '0820000')
    const boulder = zipsWholly(result, '08013', '0807850')
    const outside = zipsWholly(result, '08013', null)
    for (const zips of [denver, boulder, outside]) expect(zips.length).toBeGreaterThan(0)
    for (const zip of denver) expect(defaultCombinedRate(index, zip, 'CO', '2026-11-01')).toBe(units(CO_STATE, DENVER_CITY, METRO))
    for (const zip of boulder) expect(defaultCombinedRate(index, zip, 'CO', '2026-11-01')).toBe(units(CO_STATE, CO_COUNTY, BOULDER_CITY, METRO))
    for (const zip of outside) expect(defaultCombinedRate(index, zip, 'CO', '2026-11-01')).toBe(units(CO_STATE, CO_COUNTY))
    expect(result.notes.join(' ')).toMatch(/3 codes are self-collected home-rule cities/)
  })

  it('answers Aurora\'s codes at different rates in one county as candidates sharing the part, never one picked; its codes at one rate as one', async () => {
    const result = await compile()
    const arapahoe = zipsWholly(result, '08005', '0804000')
    expect(arapahoe.length).toBeGreaterThan(0)
    const aurora = units(CO_STATE, AURORA.arapahoe, AURORA.city, METRO)
    for (const zip of arapahoe) {
      expect(candidateTotals(result, zip)).toEqual([aurora, aurora + units(AURORA.lid)])
      const [low, high] = result.candidates.filter((c) => c.zip === zip)
      expect(low!.weight).toBe(high!.weight)
    }
    const adams = zipsWholly(result, '08001', '0804000')
    for (const zip of adams) expect(candidateTotals(result, zip)).toEqual([units(CO_STATE, AURORA.adams, AURORA.city, METRO)])
    expect(result.notes.join(' ')).toMatch(/1 places or county parts carry codes at different rates/)
  })

  it('lists a code that binds to no place as unplaced, never summed into a ZIP; sets aside a row whose County names no county', async () => {
    const atlantis: CoRow = { name: 'Atlantis', code: '001999', county: 'Adams', taxes: [{ type: 'State', rate: CO_STATE }, { type: 'County', rate: AURORA.adams }, { type: 'City', rate: 2 }] }
    const result = await compile([...rows, atlantis])
    expect(result.unplaced).toEqual([{ level: 'city', code: '001999', name: 'Atlantis', rate: 2000, counties: ['08001'], reason: '001999 binds to no Census place named Atlantis in Adams County' }])
    expect(result.jurisdictions.some((j) => j.code === '001999')).toBe(false)
    const gilpinia = await compile([...rows, { ...atlantis, county: 'Gilpinia' }])
    expect(gilpinia.notes.join(' ')).toMatch(/1 row\(s\) set aside.*row \d+: 001999 \(Atlantis\): County "Gilpinia" is no Colorado county of the geography/)
    expect(gilpinia.leftOut?.[0]).toMatchObject({ kind: 'rows set aside', count: 1 })
  })

  it('refuses a fraction written as a percent (the state rate read as 0.029%), a county at two rates and a workbook missing counties', async () => {
    const fractionsAsPercent = rows.map((r) => ({ ...r, taxes: r.taxes.map((t) => ({ ...t, rate: t.rate / 100 })) }))
    await expect(compile(fractionsAsPercent, { form: 'percent' })).rejects.toThrow(/the unit of its rates cannot be decided/)
    const twoRates = rows.map((r) => (r.code === '035004' ? { ...r, taxes: r.taxes.map((t) => (t.type === 'County' ? { ...t, rate: 2 } : t)) } : r))
    await expect(compile(twoRates)).rejects.toThrow(/035004 \(Aurora\): Douglas County at 0\.02000, row \d+ \(\d{6}\) says 0\.01000/)
    await expect(compile(rows.filter((r) => r.county !== 'Alamosa'))).rejects.toThrow(new RegExp(`1 of ${bed.counties.length} Colorado counties of the geography not listed \\(Alamosa \\(08003\\)\\): the file is incomplete`))
  })

  it('E3\'s fractions where percent numbers stand, in the only row of a county: that row set aside and named, the county answering the state rate with the row counted as left out, every other county and city served', async () => {
    const alamosa = rows.find((r) => r.county === 'Alamosa')!
    expect(rows.filter((r) => r.county === 'Alamosa')).toEqual([alamosa])
    const result = await compile(rows.map((r) => (r === alamosa ? ratesAsFractions(r) : r)))
    expect(result.notes).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (row ${rows.indexOf(alamosa) + 5}: ${alamosa.code} (${alamosa.name}) prints the state rate 0.00029, the rules table (and the rest of the sheet) 0.02900)`)
    expect(result.notes).toContain(`1 Colorado counties have no layer of their own, the rows rating them set aside (Alamosa (08003)): outside any place rated apart, the state's layer alone answers there`)
    expect(result.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 1 })])
    expect({ rowsRead: result.rowsRead, rowsParsed: result.rowsParsed }).toEqual({ rowsRead: rows.length, rowsParsed: rows.length - 1 })
    expect(result.jurisdictions.filter((j) => j.level === 'county' && j.code === '003')).toEqual([])
    const index = indexOf(result)
    const inAlamosa = zipsWholly(result, '08003', null)
    expect(inAlamosa.length).toBeGreaterThan(0)
    for (const zip of inAlamosa) expect(defaultCombinedRate(index, zip, 'CO', '2026-11-01')).toBe(STATE_RATE)
    for (const zip of zipsWholly(result, '08031', '0820000')) expect(defaultCombinedRate(index, zip, 'CO', '2026-11-01')).toBe(units(CO_STATE, DENVER_CITY, METRO))
    for (const zip of zipsWholly(result, '08013', '0807850')) expect(defaultCombinedRate(index, zip, 'CO', '2026-11-01')).toBe(units(CO_STATE, CO_COUNTY, BOULDER_CITY, METRO))
    for (const zip of zipsWholly(result, '08013', null)) expect(defaultCombinedRate(index, zip, 'CO', '2026-11-01')).toBe(units(CO_STATE, CO_COUNTY))
  })

  it('fails the file past the share a file may set aside: a sixth row of fractions among percent numbers', async () => {
    const counties = rows.filter((r) => r.name.startsWith('Unincorporated'))
    const odd = (n: number) => rows.map((r) => (counties.indexOf(r) >= 0 && counties.indexOf(r) < n ? ratesAsFractions(r) : r))
    expect((await compile(odd(5))).leftOut).toEqual([expect.objectContaining({ count: 5 })])
    await expect(parse(odd(6))).rejects.toThrow(new RegExp(`^${FILE.replace(/\./g, '\\.')}: 6 of ${rows.length} rows set aside, more than 5% \\(5\\): its layout or units changed\\?`))
  })

  it('sets aside a self-collected home-rule city whose City rate the file leaves out, rather than answering it at zero: its answers say a row was left out', async () => {
    const noCityRate = rows.map((r) => (r.name === 'Boulder' ? { ...r, taxes: r.taxes.filter((t) => t.type !== 'City') } : r))
    const result = await compile(noCityRate)
    expect(result.notes.join(' ')).toMatch(/013001 \(Boulder\): a self-collected home-rule city with no City rate in the file/)
    expect(result.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 1 })])
    expect(result.candidates.some((c) => c.placeName === 'Boulder')).toBe(false)
  })
})

const PAGE = 'co-dor/sales-use-tax-rates.html'
const EDITIONS: [string, string][] = [
  ['DR 1002 Colorado Sales/Use Tax Rates: January to June 2027', 'Colorado_Jurisdiction_Codes_Rates_Jan-June2027.xlsx'],
  ['DR 1002 Colorado Sales/Use Tax Rates: July to December 2026', FILE],
  ['DR 1002 Colorado Sales/Use Tax Rates: January to June 2026', 'Colorado_Jurisdiction_Codes_Rates_Jan-June2026.xlsx'],
]

describe('finding the workbook', () => {
  it('takes the workbook of the newest half-year begun, by its link text, holding one of a later half-year', async () => {
    await bed.mirror.publish({ [PAGE]: coRatesPageHtml(EDITIONS), [`co-dor/${FILE}`]: await coRateWorkbook(rows) })
    const sources = await fetchStateSources(CO, OFFICIAL, await bed.context())
    expect(sources.choices[0]).toMatchObject({ edition: '2026-07-01', pinned: false, request: { fileName: FILE } })
    expect(sources.choices[0]!.how).toMatch(/"DR 1002 Colorado Sales\/Use Tax Rates: July to December 2026", the newest of 3 workbook\(s\).*held until their period: Colorado_Jurisdiction_Codes_Rates_Jan-June2027\.xlsx/)
    const loaded = await loadFeed(CO, OFFICIAL, await bed.context())
    expect(loaded.edition).toBe('2026-07-01')
    expect(loaded.effectiveDateBasis).toBe('edition_only')
    expect(loaded.files.map((f) => f.name)).toContain(FILE)
  })

  it('E3 finds the workbook by the half-year in its file name whatever its link text, the latest re-issue of the period over the original beside it', async () => {
    const reissue = 'Colorado_Jurisdiction_Codes_Rates_July-Dec2026_Sep26.xlsx'
    const byName: [string, string][] = [
      ['DR 1002 Jurisdiction Codes and Rates (Excel)', 'Colorado_Jurisdiction_Codes_Rates_Jan-June2026.xlsx'],
      ['DR 1002 Jurisdiction Codes and Rates (Excel)', 'Colorado_Jurisdiction_Codes_Rates_Jan-June2026_Apr26.xlsx'],
      ['DR 1002 Jurisdiction Codes and Rates (Excel)', FILE],
      ['DR 1002 Jurisdiction Codes and Rates, revised (Excel)', reissue],
    ]
    await bed.mirror.publish({ [PAGE]: coRatesPageHtml(byName), [`co-dor/${reissue}`]: await coRateWorkbook(rows) })
    const sources = await fetchStateSources(CO, OFFICIAL, await bed.context())
    expect(sources.choices[0]).toMatchObject({ edition: '2026-07-01', pinned: false, request: { fileName: reissue } })
    expect(sources.choices[0]!.how).toMatch(/the latest re-issue of 2 for its period \(re-issued 2026-09\), over Colorado_Jurisdiction_Codes_Rates_July-Dec2026\.xlsx/)
    await bed.mirror.publish({ [PAGE]: coRatesPageHtml([...byName.slice(0, 3), ['DR 1002 Colorado Sales/Use Tax Rates: July to December 2026', 'dr1002-2026-h2.xlsx']]) })
    await expect(fetchStateSources(CO, OFFICIAL, await bed.context())).rejects.toThrow(/links 2 workbooks for the period beginning 2026-07-01 none re-issued later than the others/)
  })

  it('takes the linked workbook the operator pins, and refuses a pin the page does not link', async () => {
    const earlier = EDITIONS[2]![1]
    await bed.mirror.publish({ [PAGE]: coRatesPageHtml(EDITIONS), [`co-dor/${earlier}`]: await coRateWorkbook(rows) })
    const pinned = await fetchStateSources(CO, OFFICIAL, await bed.context({ TAXATLAS_PIN: `CO=${earlier}` }))
    expect(pinned.choices[0]).toMatchObject({ edition: '2026-01-01', pinned: true, request: { fileName: earlier } })
    await expect(fetchStateSources(CO, OFFICIAL, await bed.context({ TAXATLAS_PIN: 'CO=rates.xlsx' }))).rejects.toThrow(/TAXATLAS_PIN names rates\.xlsx for CO, which the rates page .* does not link/)
    await expect(fetchStateSources(CO, OFFICIAL, await bed.context({ TAXATLAS_PIN: 'CO=rates.csv' }))).rejects.toThrow(/TAXATLAS_PIN names rates\.csv for CO, which none of its feeds/)
  })

  it('has no file, rather than failing, on a mirror that does not carry the rates page', async () => {
    await bed.mirror.publish({})
    await expect(fetchStateSources(CO, OFFICIAL, await bed.context())).rejects.toBeInstanceOf(NoFileForState)
  })

  it('holds a page linking only a workbook of a half-year not yet begun, and fails on a page whose links lost their period text', async () => {
    await bed.mirror.publish({ [PAGE]: coRatesPageHtml([EDITIONS[0]!]) })
    await expect(fetchStateSources(CO, OFFICIAL, await bed.context())).rejects.toThrow(/links only workbooks of periods not yet begun \(Colorado_Jurisdiction_Codes_Rates_Jan-June2027\.xlsx\); held until then/)
    await bed.mirror.publish({ [PAGE]: coRatesPageHtml([['Current rates', 'rates.xlsx']]) })
    await expect(fetchStateSources(CO, OFFICIAL, await bed.context())).rejects.toThrow(/links no workbook named by its half-year .* nor by the text "January to June YYYY" or "July to December YYYY": its layout changed/)
  })

  it('refuses a sign-in page served in place of the workbook', async () => {
    await bed.mirror.publish({ [PAGE]: coRatesPageHtml(EDITIONS), [`co-dor/${FILE}`]: '<!DOCTYPE html><html><head><title>Sign In</title></head><body><form></form></body></html>' })
    await expect(fetchStateSources(CO, OFFICIAL, await bed.context())).rejects.toThrow(/Colorado_Jurisdiction_Codes_Rates_July-Dec2026\.xlsx: the server answered an HTML page \("Sign In"\) in place of the file/)
  })
})

describe('the trial against the aggregator drop', () => {
  async function judged(extra: Record<string, string> = {}) {
    await bed.mirror.publish({ [PAGE]: coRatesPageHtml(EDITIONS), [`co-dor/${FILE}`]: await coRateWorkbook(rows) })
    const ctx = await bed.context(extra)
    const sources = await fetchStateSources(CO, OFFICIAL, ctx)
    const loaded = withholdViolations(await compileState(CO, OFFICIAL, sources, ctx), CO, NOW.slice(0, 10), () => undefined, null)
    return judgeTrial({ descriptor: CO, feed: OFFICIAL, inService: null, result: loaded.result, index: loaded.index, sources, geography: bed.geography, asOf: NOW.slice(0, 10), settings: ctx.settings })
  }

  it('holds back the fixture\'s own rates, which disagree with the aggregator on most ZIPs, the comparison in the reason', async () => {
    const verdict = await judged()
    expect(verdict.held).toMatch(/co-dor on trial held back, the aggregator keeps serving: co-dor 2026-07-01 against aggregator edition 202512 on 2026-11-21: \d+ of \d+ ZIPs disagree/)
    expect(verdict.held).toMatch(/TAXATLAS_ACCEPT_OFFICIAL=CO/)
    expect(verdict.trial!.disagreement_share).toBeGreaterThan(0.4)
  })

  it('lets it serve once the operator accepts it, the comparison kept', async () => {
    const verdict = await judged({ TAXATLAS_ACCEPT_OFFICIAL: 'CO' })
    expect(verdict.held).toBeNull()
    expect(verdict.trial).toMatchObject({ accepted: true, limit: 0.4 })
  })
})

describe('at tax.colorado.gov, through the publisher replica', () => {
  const workbookUrl = new URL(`/sites/tax/files/documents/${FILE}`, CO_RATES_PAGE).href
  let dir: string
  let replica: PublisherReplica
  beforeAll(async () => {
    dir = await tempDir('co-replica')
    replica = await startPublisherReplica([new URL(CO_RATES_PAGE).host], dir)
    const file = path.join(dir, FILE)
    await writeFile(file, await coRateWorkbook(rows))
    // E3: the workbooks linked by a text naming no period, found by the half-year in their file names
    replica.answer(CO_RATES_PAGE, { kind: 'page', html: coRatesPageHtml(EDITIONS.map(([, file]) => ['DR 1002 Jurisdiction Codes and Rates (Excel)', file])), browserOnly: true })
    replica.answer(workbookUrl, { kind: 'file', file, browserOnly: true })
  })
  afterAll(async () => {
    await replica?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })
  /** The sources a refresh would fetch for Colorado, fetched by a process of its own with only the standard proxy and CA variables. */
  const fetchedAtPublisher = async (label: string) => {
    const build = path.join(dir, label)
    const run = await scriptProcessWithOnly(['test/support/fetch-sources-child.ts', 'CO'], { ...replica.env, TAXATLAS_BUILD: build, TAXATLAS_ARTIFACTS: path.join(dir, `${label}-artifacts`), TAXATLAS_DROPS: sharedPath('drops'), TAXATLAS_NOW: NOW, TAXATLAS_FETCH_RETRIES: '0' })
    expect(run.exitCode, run.stderr).toBe(0)
    return JSON.parse(run.stdout) as { choices?: { edition: string; fileName: string; url: string }[]; fetched?: { name: string; url: string }[]; error?: string }
  }
  /** The status a client that names itself as the refresh does gets, through the same proxy, trusting the replica's CA. */
  const statusForGenericClient = async (url: string) => {
    const agent = new ProxyAgent({ uri: replica.env.HTTPS_PROXY, requestTls: { ca: await readFile(replica.env.NODE_EXTRA_CA_CERTS, 'utf8') } })
    try {
      const response = await request(url, { dispatcher: agent, headers: { 'user-agent': 'taxatlas-refresh (+https://github.com/taxatlas)' } })
      await response.body.dump()
      return response.statusCode
    } finally {
      await agent.close()
    }
  }

  it('finds the workbook from the rates page and downloads it, presenting itself as a browser, the firewall refusing anything else', async () => {
    const result = await fetchedAtPublisher('found')
    expect(result.error).toBeUndefined()
    expect(result.choices).toMatchObject([{ edition: '2026-07-01', fileName: FILE, url: workbookUrl }])
    expect(result.fetched).toMatchObject([{ name: FILE, url: workbookUrl }])
    const asked = replica.requests.filter((r) => r.url === CO_RATES_PAGE || r.url === workbookUrl)
    expect(asked.map((r) => r.status)).toEqual([200, 200])
    expect(replica.proxy.tunnels.map((authority) => authority.replace(/:443$/, ''))).toContain(new URL(CO_RATES_PAGE).host)
    expect(await statusForGenericClient(CO_RATES_PAGE)).toBe(403)
    expect(await statusForGenericClient(workbookUrl)).toBe(403)
  })

  it('fails with a note naming the file and the status when the publisher answers 403 in its place', async () => {
    const restore = replica.override(workbookUrl, { kind: 'status', status: 403 })
    try {
      const result = await fetchedAtPublisher('refused')
      expect(result.error).toMatch(new RegExp(`${FILE.replace(/\./g, '\\.')}: GET ${workbookUrl.replace(/\./g, '\\.')} through the proxy http://127\\.0\\.0\\.1:\\d+ failed: .*403`))
    } finally {
      restore()
    }
  })
})
