// Avalara ZIP5 tables: parsing by header across the three held editions, row rejection, and the
// compiled feed for UT, WY and CA checked against the real files.
import { readdirSync, readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { beforeAll, describe, expect, it } from 'vitest'
import { avalaraEdition, parseAvalaraRate, parseAvalaraZip5, pickNewestDrop, type AvalaraZip5File } from '../pipeline/feeds/aggregator-drop.ts'
import { AVALARA_LABEL, compileAvalara } from '../pipeline/feeds/avalara-zip5/compile.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { placeMatchKey, placeMatchKeys } from '../snapshot-contract/place-names.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sharedPath } from './support/shared.ts'

const DROPS = sharedPath('drops', 'avalara-zip5')
const dropText = (edition: string, state: string) =>
  readFileSync(sharedPath('drops', 'avalara-zip5', edition, `TAXRATES_ZIP5_${state}${edition}.csv`), 'utf8')
const parseDrop = (edition: string, state: string): AvalaraZip5File =>
  parseAvalaraZip5(dropText(edition, state), `TAXRATES_ZIP5_${state}${edition}.csv`)
const rowOf = (file: AvalaraZip5File, zip: string) => file.rows.find((row) => row.zip === zip)

describe('file names and drop selection', () => {
  it('reads state and edition from the file name, case-insensitively', () => {
    expect(avalaraEdition('202512/TAXRATES_ZIP5_NY202512.csv')).toEqual({ state: 'NY', edition: '202512', editionDate: '2025-12-01' })
    expect(avalaraEdition('taxrates_zip5_ut201804.CSV')).toEqual({ state: 'UT', edition: '201804', editionDate: '2018-04-01' })
    expect(() => avalaraEdition('TaxRates-UpdatedRateTablesExplained.pdf')).toThrow(/not an Avalara ZIP5 table name/)
    expect(() => avalaraEdition('TAXRATES_ZIP5_NY202513.csv')).toThrow(/not an Avalara ZIP5 table name/)
  })

  it('picks the newest edition for a state from the real drop tree and ignores the PDF', () => {
    const names = readdirSync(DROPS, { recursive: true }) as string[]
    expect(names.some((name) => name.endsWith('.pdf'))).toBe(true)
    expect(pickNewestDrop(names, 'HI')?.path).toBe('202512/TAXRATES_ZIP5_HI202512.csv')
    expect(pickNewestDrop(names, 'ak')?.edition).toBe('202512')
    const older = names.filter((name) => !name.startsWith('202512'))
    expect(pickNewestDrop(older, 'HI')?.path).toBe('201911/TAXRATES_ZIP5_HI201911.csv')
    // 201911 is partial (HI–WY): AK only exists in 201804 among the older editions.
    expect(pickNewestDrop(older, 'AK')?.path).toBe('201804/TAXRATES_ZIP5_AK201804.csv')
    expect(pickNewestDrop(names, 'XX')).toBeUndefined()
  })

  it('refuses two drops of the same edition for one state', () => {
    expect(() => pickNewestDrop(['a/TAXRATES_ZIP5_NY202512.csv', 'b/taxrates_zip5_ny202512.csv'], 'NY')).toThrow(/two NY drops/)
  })
})

describe('parsing by header', () => {
  it('reads all three editions by column name although 2025-12 moved StateRate after EstimatedCombinedRate', () => {
    const headers = ['201804', '201911', '202512'].map((edition) => dropText(edition, 'HI').split('\n')[0])
    expect(headers[0]).toBe(headers[1])
    expect(headers[2]).not.toBe(headers[0])
    const [h2018, h2019, h2025] = ['201804', '201911', '202512'].map((edition) => rowOf(parseDrop(edition, 'HI'), '96701'))
    expect(Object.keys(h2018!)).toEqual(Object.keys(h2025!))
    // HI,96701,HONOLULU,0.040000,0.045000,... (2018/2019) vs HI,96701,HONOLULU,0.045000,0.040000,... (2025)
    for (const row of [h2018, h2019, h2025]) {
      expect(row).toMatchObject({ state: 'HI', taxRegionName: 'HONOLULU', stateRate: 4000, combinedRate: 4500, countyRate: 500 })
    }
    expect(h2018!.riskLevel).toBe(1)
    expect(h2025!.riskLevel).toBe(0)
  })

  it('reads CA 90001 from each edition with its own values', () => {
    // 201804: CA,90001,"LOS ANGELES COUNTY",0.060000,0.095000,0.002500,0,0.032500,2
    expect(rowOf(parseDrop('201804', 'CA'), '90001')).toEqual({
      state: 'CA', zip: '90001', taxRegionName: 'LOS ANGELES COUNTY',
      stateRate: 6000, combinedRate: 9500, countyRate: 250, cityRate: 0, specialRate: 3250, riskLevel: 2,
    })
    // 202512: CA,90001,HUNTINGTON PARK,0.105000,0.060000,0.002500,0.007500,0.035000,0
    expect(rowOf(parseDrop('202512', 'CA'), '90001')).toEqual({
      state: 'CA', zip: '90001', taxRegionName: 'HUNTINGTON PARK',
      stateRate: 6000, combinedRate: 10500, countyRate: 250, cityRate: 750, specialRate: 3500, riskLevel: 0,
    })
  })

  it('parses a reordered-columns copy of the real 202512 CA file identically', () => {
    const text = dropText('202512', 'CA')
    const table = Papa.parse<string[]>(text, { skipEmptyLines: true }).data
    const order = table[0]!.map((_, i) => i).reverse()
    const reordered = Papa.unparse(table.map((row) => order.map((i) => row[i]!)), { newline: '\n' }) + '\n'
    expect(reordered.split('\n')[0]).toBe('RiskLevel,EstimatedSpecialRate,EstimatedCityRate,EstimatedCountyRate,StateRate,EstimatedCombinedRate,TaxRegionName,ZipCode,State')
    const original = parseAvalaraZip5(text, 'TAXRATES_ZIP5_CA202512.csv')
    expect(parseAvalaraZip5(reordered, 'TAXRATES_ZIP5_CA202512.csv').rows).toEqual(original.rows)
    expect(original.rows).toHaveLength(2572)
  })

  it('fails on a changed column layout, naming the missing column and the header found', () => {
    const text = dropText('202512', 'CA').replace('EstimatedCountyRate', 'CountyRate')
    expect(() => parseAvalaraZip5(text, 'TAXRATES_ZIP5_CA202512.csv')).toThrow(
      /changed column layout: missing EstimatedCountyRate; header found: State, ZipCode, TaxRegionName, EstimatedCombinedRate, StateRate, CountyRate/,
    )
  })

  it('treats RiskLevel as optional', () => {
    const table = Papa.parse<string[]>(dropText('202512', 'WY'), { skipEmptyLines: true }).data
    const text = Papa.unparse(table.map((row) => row.slice(0, 8)), { newline: '\n' }) + '\n'
    const parsed = parseAvalaraZip5(text, 'TAXRATES_ZIP5_WY202512.csv')
    expect(parsed.rows.length).toBe(parseDrop('202512', 'WY').rows.length)
    expect(parsed.rows.every((row) => row.riskLevel === null)).toBe(true)
  })
})

describe('a ZIP listed twice', () => {
  const text = dropText('202512', 'TX')
  const row = text.split(/\r?\n/).find((line) => line.startsWith('TX,78701,'))!

  it('with the same rates (the row repeated): kept once, with a note', () => {
    const file = parseAvalaraZip5(`${text}${row}\n`, 'TAXRATES_ZIP5_TX202512.csv')
    expect(file.rows.filter((r) => r.zip === '78701')).toHaveLength(1)
    expect(file.rows).toHaveLength(parseDrop('202512', 'TX').rows.length)
    expect(file.notes.join(' ')).toMatch(/1 duplicate row\(s\) collapsed .*row \d+ \(78701, AUSTIN\) repeats row \d+ \(78701, AUSTIN\)/)
  })

  it('with other rates (the repeat contradicts the row): the file fails, naming both rows', () => {
    const repeated = row.replace('0.082500,0.062500,0.000000,0.010000,0.010000', '0.092500,0.062500,0.000000,0.020000,0.010000')
    expect(() => parseAvalaraZip5(`${text}${repeated}\n`, 'TAXRATES_ZIP5_TX202512.csv')).toThrow(
      /TAXRATES_ZIP5_TX202512\.csv: 1 pair\(s\) of rows contradict each other .*\(78701, AUSTIN\) \(state\/county\/city\/special 0\.06250\/0\.00000\/0\.01000\/0\.01000.*0\.06250\/0\.00000\/0\.02000\/0\.01000/,
    )
  })
})

describe('row validation', () => {
  it('P11 quoted field containing a comma (real 201911 MA row "RANDOLPH, MA")', () => {
    const ma = parseDrop('201911', 'MA')
    expect(ma.rejected).toEqual([])
    expect(rowOf(ma, '02368')).toMatchObject({ taxRegionName: 'RANDOLPH, MA', stateRate: 6250, combinedRate: 6250 })
    // The same ZIP built into a 2025-12 row with a comma in its quoted name.
    const text = dropText('202512', 'MA').replace('MA,02368,HOLBROOK,', 'MA,02368,"HOLBROOK, RANDOLPH",')
    expect(rowOf(parseAvalaraZip5(text, 'TAXRATES_ZIP5_MA202512.csv'), '02368')).toMatchObject({
      taxRegionName: 'HOLBROOK, RANDOLPH',
      combinedRate: 6250,
    })
  })

  it('P11 rejects the real 202512 AR row whose name holds U+FFFD, keeps the rest', () => {
    const ar = parseDrop('202512', 'AR')
    expect(ar.rejected).toEqual([{ row: 433, zip: '72449', reason: expect.stringContaining('U+FFFD') }])
    expect(ar.rows).toHaveLength(ar.rowsRead - 1)
    expect(ar.notes.join(' ')).toContain('72449')
  })

  it('rejects the last row of a real file cut mid-row (truncated download)', () => {
    const full = dropText('202512', 'CA')
    const cut = full.slice(0, full.lastIndexOf('\n', full.length - 2) + 25)
    expect(cut.endsWith('\n')).toBe(false)
    const parsed = parseAvalaraZip5(cut, 'TAXRATES_ZIP5_CA202512.csv')
    const complete = parseAvalaraZip5(full, 'TAXRATES_ZIP5_CA202512.csv')
    expect(parsed.rejected).toEqual([{ row: 2572, zip: '97635', reason: expect.stringMatching(/truncated/) }])
    expect(parsed.rows).toEqual(complete.rows.slice(0, -1))
  })

  it('rejects a row whose parts do not sum to the combined rate (invariant)', () => {
    // Real row: WY,82930,BEAR RIVER,0.050000,0.040000,0.010000,0.000000,0.000000,0
    const text = dropText('202512', 'WY').replace('WY,82930,BEAR RIVER,0.050000,', 'WY,82930,BEAR RIVER,0.055000,')
    const parsed = parseAvalaraZip5(text, 'TAXRATES_ZIP5_WY202512.csv')
    expect(parsed.rejected).toEqual([{ row: expect.any(Number), zip: '82930', reason: expect.stringMatching(/= 5000 ≠ combined 5500/) }])
  })

  it('fails the file when more than 1% of rows are rejected', () => {
    const lines = dropText('202512', 'CA').split('\n')
    // 2572 rows: 26 broken rows are just over 1%.
    const broken = lines.map((line, i) => (i >= 1 && i <= 26 ? line.replace(/^CA,(\d{5}),/, 'CA,$1x,') : line)).join('\n')
    expect(() => parseAvalaraZip5(broken, 'TAXRATES_ZIP5_CA202512.csv')).toThrow(/26 of 2572 rows rejected \(over 1%\)/)
    const tolerable = lines.map((line, i) => (i >= 1 && i <= 25 ? line.replace(/^CA,(\d{5}),/, 'CA,$1x,') : line)).join('\n')
    expect(parseAvalaraZip5(tolerable, 'TAXRATES_ZIP5_CA202512.csv').rejected).toHaveLength(25)
  })

  it('fails a file with no usable rows (empty, or every row of another state)', () => {
    expect(() => parseAvalaraZip5(dropText('202512', 'WY').split('\n')[0] + '\n', 'TAXRATES_ZIP5_WY202512.csv')).toThrow(/no usable rows/)
    expect(() => parseAvalaraZip5(dropText('202512', 'WY'), 'TAXRATES_ZIP5_UT202512.csv')).toThrow(/State WY in a UT file/)
  })

  it('keeps ZIPs as published: every held row has 5 digits, a 4-digit ZIP is rejected, not padded', () => {
    for (const edition of ['201804', '201911', '202512']) {
      for (const name of readdirSync(`${DROPS}/${edition}`).filter((n) => n.endsWith('.csv'))) {
        const zips = Papa.parse<Record<string, string>>(readFileSync(`${DROPS}/${edition}/${name}`, 'utf8'), { header: true, skipEmptyLines: true })
          .data.map((row) => row.ZipCode!)
        expect(zips.every((zip) => /^\d{5}$/.test(zip)), name).toBe(true)
      }
    }
    const text = dropText('202512', 'MA').replace('MA,02368,', 'MA,2368,')
    expect(parseAvalaraZip5(text, 'TAXRATES_ZIP5_MA202512.csv').rejected[0]).toMatchObject({ zip: '2368', reason: expect.stringMatching(/5 digits/) })
  })
})

describe('rate text', () => {
  it('repairs the 6th-decimal float artefact (UT 202512 StateRate 0.048499 is 4.85%)', () => {
    expect(parseAvalaraRate('0.048499')).toEqual({ ok: true, units: 4850, repaired: true })
    expect(parseAvalaraRate('0.020501')).toEqual({ ok: true, units: 2050, repaired: true })
    expect(parseAvalaraRate('0.062500')).toEqual({ ok: true, units: 6250, repaired: false })
    expect(parseAvalaraRate('0')).toEqual({ ok: true, units: 0, repaired: false })
    const ut = parseDrop('202512', 'UT')
    expect(ut.rejected).toEqual([])
    expect(ut.repairedRates).toBe(346)
    expect(new Set(ut.rows.map((row) => row.stateRate))).toEqual(new Set([4850]))
  })

  it('rounds rates finer than 1e-5 half-up to the served precision (NM 0.074375 → 0.07438)', () => {
    expect(parseAvalaraRate('0.074375')).toEqual({ ok: true, units: 7438, repaired: true })
    expect(parseAvalaraRate('0.030624')).toEqual({ ok: true, units: 3062, repaired: true })
    for (const edition of ['201804', '201911', '202512']) {
      const nm = parseDrop(edition, 'NM')
      expect(nm.rejected, edition).toHaveLength(0)
      expect(nm.repairedRates, edition).toBeGreaterThan(0)
    }
    const text = readFileSync(`${DROPS}/202512/TAXRATES_ZIP5_NM202512.csv`, 'utf8')
    const rioRancho = text.split('\n').find((line) => line.startsWith('NM,87004,'))!
    expect(rioRancho).toContain('0.074375')
    const row = parseDrop('202512', 'NM').rows.find((r) => r.zip === '87004')!
    // the served parts are rounded one by one and the served combined rate is their sum
    expect(row.combinedRate).toBe(row.stateRate + row.countyRate + row.cityRate + row.specialRate)
    expect(row.combinedRate).toBe(7438)
    expect(parseDrop('202512', 'MO').rejected).toHaveLength(0)
  })

  it('parses every held file', () => {
    for (const edition of ['201804', '201911', '202512']) {
      for (const name of readdirSync(`${DROPS}/${edition}`).filter((n) => n.endsWith('.csv'))) {
        const parsed = parseAvalaraZip5(readFileSync(`${DROPS}/${edition}/${name}`, 'utf8'), name)
        expect(parsed.rows.length, name).toBeGreaterThan(0)
        expect(parsed.rows.length + parsed.rejected.length, name).toBe(parsed.rowsRead)
      }
    }
  })
})

describe('compiled feed', () => {
  let geography: Geography
  beforeAll(async () => {
    // OR is loaded so CA's 97635 is known to sit in Oregon.
    geography = await loadMiniGeography(['UT', 'WY', 'CA', 'SD', 'OR'])
  })

  const compile = (edition: string, state: string) => {
    const parsed = parseDrop(edition, state)
    return compileAvalara({ ...parsed, geography })
  }

  it('P23 border ZIPs in two states\' files: 82930 (UT and WY 202512) is kept only in WY', () => {
    expect(geography.zips.get('82930')?.state).toBe('WY')
    expect(rowOf(parseDrop('202512', 'UT'), '82930')).toBeDefined()
    expect(rowOf(parseDrop('202512', 'WY'), '82930')).toBeDefined()
    const ut = compile('202512', 'UT')
    const wy = compile('202512', 'WY')
    expect(ut.candidates.some((c) => c.zip === '82930')).toBe(false)
    expect(ut.notes.join('\n')).toMatch(/border ZIPs dropped.*82930 \(geography: WY\)/)
    const kept = wy.candidates.filter((c) => c.zip === '82930')
    expect(kept).toHaveLength(1)
    expect(kept[0]).toMatchObject({ state: 'WY', countyFips: '56041', weight: 1 })
    // BEAR RIVER: state 4%, county 1%
    const rates = kept[0]!.stack.map((ref) => wy.jurisdictions.find((j) => j.level === ref.level && j.code === ref.code)!.rate)
    expect(rates).toEqual([4000, 1000])
  })

  it('drops CA 97635 (New Pine Creek, placed in Lake County OR by HUD) from the CA feed', () => {
    const ca = compile('202512', 'CA')
    expect(geography.zips.get('97635')?.state).toBe('OR')
    expect(ca.candidates.some((c) => c.zip === '97635')).toBe(false)
  })

  it('labels the feed as an aggregator estimate with edition-only dates', () => {
    const ut = compile('202512', 'UT')
    expect(ut.notes[0]).toContain(AVALARA_LABEL)
    expect(ut).toMatchObject({ edition: '202512', effectiveThrough: '2025-12-01', effectiveDateBasis: 'edition_only', rowsRead: 346 })
    for (const j of ut.jurisdictions) expect(j).toMatchObject({ state: 'UT', from: '2025-12-01', to: null, source: 'TAXRATES_ZIP5_UT202512.csv' })
  })

  it('gives each kept ZIP one candidate whose stack sums to the published combined rate (two where the row was set aside)', () => {
    for (const [edition, state] of [['202512', 'CA'], ['201804', 'CA'], ['202512', 'UT'], ['202512', 'SD']] as const) {
      const parsed = parseDrop(edition, state)
      const feed = compileAvalara({ ...parsed, geography })
      const rate = new Map(feed.jurisdictions.map((j) => [`${j.level}|${j.code}`, j.rate]))
      const byZip = new Map(parsed.rows.map((row) => [row.zip, row]))
      const rows = feed.candidates.filter((c) => c.basis !== 'usual_rate')
      for (const candidate of rows) {
        const restated = feed.candidates.some((c) => c.zip === candidate.zip && c.basis === 'usual_rate')
        expect(candidate.weight).toBeCloseTo(restated ? 1 / 3 : 1, 12)
        const sum = candidate.stack.reduce((total, ref) => total + rate.get(`${ref.level}|${ref.code}`)!, 0)
        expect(sum, `${state} ${candidate.zip}`).toBe(byZip.get(candidate.zip)!.combinedRate)
        expect(new Set(candidate.stack.map((ref) => ref.level)).size).toBe(candidate.stack.length)
      }
      expect(new Set(rows.map((c) => c.zip)).size).toBe(rows.length)
    }
  })

  it('never gives one (level, code) two rates: county codes split per ZIP only where ZIPs of a county disagree', () => {
    const ca = compile('202512', 'CA')
    const keys = ca.jurisdictions.map((j) => `${j.level}|${j.code}`)
    expect(new Set(keys).size).toBe(keys.length)
    const counties = ca.jurisdictions.filter((j) => j.level === 'county')
    // Los Angeles County (037): every LA ZIP in the file carries the 0.25% county rate.
    expect(counties.find((j) => j.code === '037')).toMatchObject({ rate: 250, name: expect.stringMatching(/Los Angeles/) })
    expect(counties.some((j) => j.code.startsWith('037:'))).toBe(false)
  })

  it('keeps a separate state-level code for SD reservation ZIPs where Avalara files the state rate at 0', () => {
    const sd = compile('202512', 'SD')
    const states = sd.jurisdictions.filter((j) => j.level === 'state')
    expect(states.find((j) => j.code === 'SD')).toMatchObject({ rate: 4200 })
    // SD,57339,CROW CREEK RESERVATION,0.042000,0.000000,0.000000,0.000000,0.042000,0
    expect(states.find((j) => j.code === 'SD:57339')).toMatchObject({ rate: 0 })
    const crowCreek = sd.candidates.find((c) => c.zip === '57339')!
    expect(crowCreek.stack).toContainEqual({ level: 'district', code: 'zip:57339' })
  })

  it('keeps ZIPs unknown to geography, without a county, and counts them', () => {
    const wy = parseDrop('202512', 'WY')
    const unknown = wy.rows.filter((row) => !geography.zips.has(row.zip))
    const feed = compileAvalara({ ...wy, geography })
    for (const row of unknown) {
      const candidate = feed.candidates.find((c) => c.zip === row.zip)!
      expect(candidate.countyFips).toBeNull()
      expect(candidate.stack[1]).toEqual({ level: 'county', code: `zip:${row.zip}` })
    }
    expect(unknown.length).toBeGreaterThan(0)
    expect(feed.notes.join('\n')).toContain(`${unknown.length} ZIPs unknown to geography`)
  })
})

describe('city names of aggregator rows', () => {
  let geography: Geography
  beforeAll(async () => {
    geography = await loadMiniGeography(['IL', 'AZ', 'NY', 'MO', 'AR', 'VT'])
  })
  const compiled = (state: string) => compileAvalara({ ...parseDrop('202512', state), geography })
  const cityOf = (state: string, zip: string) => {
    const feed = compiled(state)
    const candidate = feed.candidates.find((c) => c.zip === zip)!
    const named = (level: string) => feed.jurisdictions.find((j) => j.level === level && candidate.stack.some((ref) => ref.level === level && ref.code === j.code))
    return { candidate, city: named('city'), district: named('district') }
  }

  it('a region named for a district is answered with the city the ZIP is bound to; the district keeps the region name', () => {
    // IL,60601,CHICAGO METRO PIER AND EXPOSITION AUTHORITY DISTRICT,0.102500,0.062500,0.017500,0.012500,0.010000,0
    const chicago = cityOf('IL', '60601')
    expect(chicago.city).toMatchObject({ name: 'CHICAGO', rate: 1250 })
    expect(chicago.candidate.placeName).toBe('CHICAGO')
    expect(chicago.district).toMatchObject({ name: 'Special districts (CHICAGO METRO PIER AND EXPOSITION AUTHORITY DISTRICT)', rate: 1000 })
  })

  it('a region named for a county is answered with the ZIP\'s only bound place', () => {
    // AZ,85004,MARICOPA COUNTY STADIUM DISTRICT,…,0.028000 (Phoenix's city rate); Maricopa is also a city, elsewhere
    expect(geography.zips.get('85004')!.places.map((p) => p.name)).toEqual(['Phoenix'])
    expect(cityOf('AZ', '85004').city).toMatchObject({ name: 'PHOENIX', rate: 2800 })
    // AR,72405,CRAIGHEAD,…,0.030000
    expect(cityOf('AR', '72405').city).toMatchObject({ name: 'JONESBORO', rate: 3000 })
    // NY,10272,RICHMOND (a Staten Island region at a ZIP mailed as NEW YORK): named as the file
    // names New York City elsewhere, not as the Census "New York"
    expect(cityOf('NY', '10272').city!.name).toBe('NEW YORK CITY')
  })

  it('keeps a region name that is a place, or that no bound place explains', () => {
    // NY,10001,NEW YORK CITY: the Census place "New York city"
    expect(cityOf('NY', '10001').city!.name).toBe('NEW YORK CITY')
    // MO,63136,COUNTRY CL HILL T1 LUC TL: Country Club Hills, abbreviated; the ZIP is mailed as St. Louis
    expect(cityOf('MO', '63136').city!.name).toBe('COUNTRY CL HILL T1 LUC TL')
    // VT,05641,BERLIN: a town (not a Census place) whose 1% applies; the ZIP is mailed as Barre
    expect(cityOf('VT', '05641').city!.name).toBe('BERLIN')
  })

  it('never names a city the ZIP is not bound to unless the region itself names it', () => {
    for (const state of ['IL', 'AZ', 'NY', 'MO', 'AR', 'VT']) {
      const feed = compiled(state)
      const regions = new Map(parseDrop('202512', state).rows.map((row) => [row.zip, row.taxRegionName]))
      for (const candidate of feed.candidates) {
        const region = regions.get(candidate.zip)!
        if (candidate.placeName === '' || candidate.placeName === region) continue
        const bound = geography.zips.get(candidate.zip)!.places.flatMap((p) => {
          const { fullName } = geography.places.get(p.geoid)!
          return [...placeMatchKeys(fullName), placeMatchKey(fullName)]
        })
        expect(bound, `${state} ${candidate.zip} ${region}`).toContain(placeMatchKey(candidate.placeName))
      }
    }
  })
})
