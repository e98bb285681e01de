// Alaska from ARSSTC's rate sheet: a workbook built from the documented layout
// (support/ak-rate-sheet-fixture.ts), parsed by header name and compiled against the real AK
// geography; found from the tax rates page on a mirror served over loopback HTTP and, as production
// runs, through the publisher replica in a process of its own; put on trial against the real drop.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseAkRateSheet } from '../pipeline/feeds/ak-arsstc/rate-sheet.ts'
import { compileAkRates } from '../pipeline/feeds/ak-arsstc/compile.ts'
import { NoFileForState } from '../pipeline/fetch/no-file-for-state.ts'
import { compileState, fetchStateSources, loadFeed } from '../pipeline/run/load-state.ts'
import { judgeTrial } from '../pipeline/run/official-trial.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import AK from '../sources/ak.ts'
import { AK_RATES_PAGE } from '../sources/descriptor.ts'
import { AK_HEADER, AK_ROWS, akRateSheet, akTaxRatesPage, type AkSheetOptions, type AkSheetRow } from './support/ak-rate-sheet-fixture.ts'
import { loadFeedProcess, withPublisherReplica } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'

const FILE = 'ARSSTC-Sales-Tax-Rate-Sheet-9-1-26.xlsx'
const NOW = '2026-11-21T03:00:00.000Z'
const TODAY = NOW.slice(0, 10)
const bed = feedTestBed('AK', NOW)
let geography: Geography

beforeAll(() => {
  geography = bed.geography
})

const parse = async (rows: AkSheetRow[] = AK_ROWS, options: AkSheetOptions = {}) => parseAkRateSheet(await akRateSheet(rows, options), FILE)
const compile = async (rows: AkSheetRow[] = AK_ROWS, options: AkSheetOptions = {}) => compileAkRates({ sheet: await parse(rows, options), stateRate: 0, geography, edition: '2026-09-01' })
const indexOf = (result: FeedResult) => new RateIndex(writeRateIndex({ states: [{ code: 'AK', result }], zipMeta: () => undefined }))
const ketchikan = (change: Partial<AkSheetRow>) => AK_ROWS.map((r) => (r.city === 'Ketchikan' ? { ...r, ...change } : r))

describe('reading the rate sheet', () => {
  it('reads the As-of date and every row below the header on row 4, and below a header moved further down alike', async () => {
    const sheet = await parse()
    expect(sheet.asOf).toBe('2026-09-01')
    expect(sheet.rows).toHaveLength(AK_ROWS.length)
    expect(sheet.rows[0]!.row).toBe(5)
    expect(sheet.rows.find((r) => r.city === 'Ketchikan')).toMatchObject({ borough: 'Ketchikan Gateway Borough', boroughRate: 2500, cityRate: 5500, total: 8000 })
    expect((await parse(AK_ROWS, { titleRows: 6 })).rows).toEqual(sheet.rows.map((r) => ({ ...r, row: r.row + 3 })))
  })

  it('reads city rows written under merged borough cells (name and rate blank) as under the borough above', async () => {
    expect((await parse(AK_ROWS, { merged: true })).rows).toEqual((await parse()).rows)
  })

  it('refuses a header out of reach or lacking a column, no As-of date, a percent where a fraction is expected, a rate written as text, and parts not adding up', async () => {
    await expect(parse(AK_ROWS, { titleRows: 12 })).rejects.toThrow(/no header row naming "Borough \/ Census Tract Name" in its first 10 rows/)
    await expect(parse(AK_ROWS, { header: AK_HEADER.map((h) => (h === 'Sales Tax Rate Total' ? 'Total' : h)) })).rejects.toThrow(/row 4: header lacks Sales Tax Rate Total/)
    await expect(parse(AK_ROWS, { asOf: 'September 2026' })).rejects.toThrow(/no "As of M\/D\/YYYY" above the header/)
    await expect(parse(ketchikan({ cityRate: 5.5, total: 8 }))).rejects.toThrow(/Ketchikan: City \/ Taxing Area Sales Tax Rate 5\.5 is not a fraction: a percent where a fraction is expected/)
    await expect(parse(ketchikan({ cityRate: '5.5% (Apr-Sep) / 3%' }))).rejects.toThrow(/Ketchikan: City \/ Taxing Area Sales Tax Rate "5\.5% \(Apr-Sep\) \/ 3%" is not a number \(a seasonal rate written out\?\)/)
    await expect(parse(ketchikan({ total: 0.075 }))).rejects.toThrow(/Ketchikan: borough 0\.02500 and city 0\.05500 add up to 0\.08000, its Sales Tax Rate Total says 0\.07500/)
  })
})

describe('compiling Alaska', () => {
  it('answers the Ketchikan anchor, 2.5% borough + 5.5% city, and each city with its borough; no state tax', async () => {
    const result = await compile()
    const index = indexOf(result)
    for (const anchor of AK.anchors.filter((a) => a.feed === 'ak-arsstc')) expect(defaultCombinedRate(index, anchor.zip, 'AK', anchor.asOf), anchor.source).toBe(Number(anchor.expected.replace('.', '')))
    expect(result.jurisdictions.find((j) => j.level === 'state')!.rate).toBe(0)
    expect(defaultCombinedRate(index, '99611', 'AK', TODAY)).toBe(6500)
    expect(defaultCombinedRate(index, '99669', 'AK', TODAY)).toBe(6000)
    // Juneau: the city and borough's rate; Anchorage: no member row, no tax
    expect(defaultCombinedRate(index, '99801', 'AK', TODAY)).toBe(5000)
    expect(defaultCombinedRate(index, '99501', 'AK', TODAY)).toBe(0)
  })

  it('leaves the borough layer out where its row has no borough tax (Wasilla, Bethel), and lists a city no place bears the name of as unplaced', async () => {
    const result = await compile()
    const index = indexOf(result)
    const wasilla = result.candidates.filter((c) => c.zip === '99654')
    expect(wasilla.map((c) => c.stack.map((r) => r.level))).toEqual([['state', 'city']])
    expect(defaultCombinedRate(index, '99654', 'AK', TODAY)).toBe(2500)
    expect(defaultCombinedRate(index, '99559', 'AK', TODAY)).toBe(6000)
    expect(result.unplaced).toEqual([expect.objectContaining({ level: 'city', name: 'Atlantis', rate: 2000, counties: ['02122'], reason: 'binds to no Census place named Atlantis in Kenai Peninsula Borough' })])
    expect(result.notes.join(' ')).toMatch(/ARSSTC lists its member boroughs and cities only: \d+ boroughs and census areas of the geography have no row/)
  })

  it('refuses a borough that binds to no borough or census area, and a city counting another borough rate than its borough row', async () => {
    await expect(compile([...AK_ROWS, { borough: 'Gotham Borough', boroughRate: 0.01, total: 0.01 }])).rejects.toThrow(/"Gotham Borough" binds to no Alaska borough or census area/)
    await expect(compile(AK_ROWS.map((r) => (r.city === 'Kenai' ? { ...r, boroughRate: 0.02, total: 0.055 } : r)))).rejects.toThrow(/Kenai counts 0\.02000 of Kenai Peninsula Borough's tax, whose own row says 0\.03000/)
  })
})

const SHEET_ZIP = 'ARSSTC-Sales-Tax-Rate-Sheet-9-1-26.zip'
const LATER = 'ARSSTC-Sales-Tax-Rate-Sheet-1-1-2027.xlsx'
const OLDER = 'ARSSTC-Sales-Tax-Rate-Sheet-4-1-26.xlsx'

describe('finding the rate sheet', () => {
  it('takes the newest sheet in effect, the workbook rather than its ZIP, holding a later one; is on trial against the aggregator', async () => {
    const sheet = await akRateSheet()
    await bed.mirror.publish({ [`ak-arsstc/${FILE}`]: sheet, [`ak-arsstc/${SHEET_ZIP}`]: Buffer.from(zipSync({ [FILE]: new Uint8Array(sheet) })), [`ak-arsstc/${OLDER}`]: await akRateSheet(AK_ROWS, { asOf: '4/1/2026' }), [`ak-arsstc/${LATER}`]: await akRateSheet(AK_ROWS, { asOf: '1/1/2027' }) })
    const context = await bed.context()
    const sources = await fetchStateSources(AK, AK.feeds[0]!, context)
    expect(sources.choices[0]).toMatchObject({ edition: '2026-09-01', request: { fileName: FILE } })
    expect(sources.choices[0]!.how).toMatch(/the newest of 4 rate sheet\(s\).*held until their date: ARSSTC-Sales-Tax-Rate-Sheet-1-1-2027\.xlsx/)
    const result = await compileState(AK, AK.feeds[0]!, sources, context)
    expect(result).toMatchObject({ edition: '2026-09-01', effectiveDateBasis: 'edition_only' })
    const trial = (acceptOfficial: string[]) => judgeTrial({ descriptor: AK, feed: AK.feeds[0]!, inService: null, result, index: indexOf(result), sources, geography, asOf: TODAY, settings: { trialDisagreementLimit: 0.4, acceptOfficial } })
    const verdict = trial([])
    expect(verdict.trial).toMatchObject({ aggregator_edition: '202512', accepted: false })
    expect(verdict.held ?? verdict.notes.join(' ')).toMatch(/ak-arsstc 2026-09-01 against aggregator edition 202512 on 2026-11-21: \d+ of \d+ ZIPs disagree/)
    expect(trial(['AK'])).toMatchObject({ held: null, trial: { accepted: true } })
  })

  it('reads a sheet linked only wrapped in a ZIP, with a 4-digit year; holds a sheet whose As-of date is after today', async () => {
    const name = 'ARSSTC-Sales-Tax-Rate-Sheet-9-1-2026.zip'
    await bed.mirror.publish({ [`ak-arsstc/${name}`]: Buffer.from(zipSync({ [FILE]: new Uint8Array(await akRateSheet()), 'readme.txt': strToU8('rate sheet') })) })
    const loaded = await loadFeed(AK, AK.feeds[0]!, await bed.context())
    expect(loaded.edition).toBe('2026-09-01')
    expect(loaded.files.map((f) => f.name)).toContain(name)
    await bed.mirror.publish({ [`ak-arsstc/${FILE}`]: await akRateSheet(AK_ROWS, { asOf: '12/1/2026' }) })
    await expect(loadFeed(AK, AK.feeds[0]!, await bed.context())).rejects.toThrow(/its rates take effect on 2026-12-01, after today \(2026-11-21\); held until then/)
  })

  it('fails on a sign-in page in place of the sheet, on a page linking only later sheets and on a pin; has no file on a mirror without the folder', async () => {
    await bed.mirror.publish({ [`ak-arsstc/${FILE}`]: '<!DOCTYPE html><html><head><title>Log In ‹ ARSSTC</title></head></html>' })
    await expect(fetchStateSources(AK, AK.feeds[0]!, await bed.context())).rejects.toThrow(/ARSSTC-Sales-Tax-Rate-Sheet-9-1-26\.xlsx: the server answered an HTML page/)
    await bed.mirror.publish({ [`ak-arsstc/${LATER}`]: await akRateSheet(AK_ROWS, { asOf: '1/1/2027' }) })
    await expect(fetchStateSources(AK, AK.feeds[0]!, await bed.context())).rejects.toThrow(/links only rate sheets dated after today \(ARSSTC-Sales-Tax-Rate-Sheet-1-1-2027\.xlsx\); held until then/)
    await expect(fetchStateSources(AK, AK.feeds[0]!, await bed.context({ TAXATLAS_PIN: `AK=${LATER}` }))).rejects.toThrow(/TAXATLAS_PIN names ARSSTC-Sales-Tax-Rate-Sheet-1-1-2027\.xlsx for AK, which none of its feeds \(ak-arsstc, avalara-zip5\) publishes/)
    await bed.mirror.publish({})
    await expect(fetchStateSources(AK, AK.feeds[0]!, await bed.context())).rejects.toBeInstanceOf(NoFileForState)
  })
})

describe('through the publisher replica, as production runs', () => {
  it('finds the sheet linked from the tax rates page at arsstc.org through the proxy', async () => {
    await withPublisherReplica(['arsstc.org'], async (replica, dir) => {
      const file = path.join(dir, FILE)
      await writeFile(file, await akRateSheet())
      replica.answer(AK_RATES_PAGE, { kind: 'page', html: akTaxRatesPage([FILE, OLDER]) })
      const url = `https://arsstc.org/wp-content/uploads/2026/09/${FILE}`
      replica.answer(url, { kind: 'file', file })
      const loaded = await loadFeedProcess('AK', NOW, dir, replica.env)
      if ('error' in loaded) throw new Error(loaded.error)
      expect(loaded.choices[0]).toMatchObject({ edition: '2026-09-01', request: { officialUrl: url } })
      expect(loaded.result.files.map((f) => f.url).filter((u) => u.startsWith('https:'))).toEqual([url])
      expect(defaultCombinedRate(indexOf(loaded.result), '99901', 'AK', TODAY)).toBe(8000)
      expect(replica.proxy.tunnels.map((t) => t.replace(/:443$/, ''))).toContain('arsstc.org')
    })
  }, 120_000)
})
