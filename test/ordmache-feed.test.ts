// Illinois from IDOR's ordmache file: the real file parsed and compiled against the real IL
// geography; expectations are read from the file's own records in the test.
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { compileOrdmache, illinoisCountyFips, ORDMACHA_FILE } from '../pipeline/feeds/idor-ordmache/compile.ts'
import { parseOrdmacheFile } from '../pipeline/feeds/idor-ordmache/rate-file.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { JurisdictionRate, ZipCandidate, type FeedResult } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { RULES_TABLE_AS_OF, stateFacts, stateRateOn } from '../sources/state-facts.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sharedPath } from './support/shared.ts'

const FILE = 'ordmache-current.txt'
const TEXT = decodeText(readFileSync(sharedPath('mirror/idor', FILE)), FILE)
const LINES = TEXT.split('\n')
const STATE_RATE = stateRateOn(stateFacts('IL')!, RULES_TABLE_AS_OF)!

// The record layout (0-based offsets), as the test reads it independently of the parser.
const code = (line: string) => line.slice(0, 10)
const countyNumber = (line: string) => Number(line.slice(0, 3))
const name = (line: string) => line.slice(10, 35).trim()
const flagged = (line: string) => line[60] === 'Y'
const iso = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6)}`
const current = (line: string) => ({ from: iso(line.slice(61, 69)), rate: Number(line.slice(69, 74)) })
const prior = (line: string) => ({ from: iso(line.slice(132, 140)), to: iso(line.slice(140, 148)), rate: Number(line.slice(148, 153)) })
const isIllinois = (line: string) => countyNumber(line) >= 1 && countyNumber(line) <= 102
const isCountyRecord = (line: string) => line.slice(4, 8) === '5000'
const countyRecordOf = (line: string) => LINES.find((l) => isCountyRecord(l) && countyNumber(l) === countyNumber(line))!
const lineOf = (wanted: string) => LINES.find((line) => code(line) === wanted)!

let geography: Geography
let result: FeedResult
let index: RateIndex

const compile = (text: string) => compileOrdmache({ file: parseOrdmacheFile(text, FILE), stateRate: STATE_RATE, geography })
const withLines = (edit: (lines: string[]) => void) => {
  const lines = [...LINES]
  edit(lines)
  return lines.join('\n')
}
/** A ZIP whose answer carries the district of a location code, and the county it is answered in. */
function zipCarrying(location: string): ZipCandidate {
  const candidate = result.candidates.find((c) => c.weight > 0.5 && c.stack.some((ref) => ref.level === 'district' && ref.code === location))
  if (!candidate) throw new Error(`no ZIP answers ${location}`)
  return candidate
}
const combinedOn = (candidate: ZipCandidate, date: string) => {
  const entry = index.lookupZip(candidate.zip).find((e) => e.state === 'IL')!
  const found = entry.candidates.find((c) => c.county?.fips === candidate.countyFips && (c.place?.geoid ?? null) === candidate.placeFips)!
  return index.combinedRate(found.stack, date)
}

beforeAll(async () => {
  geography = await loadMiniGeography(['IL'])
  result = compile(TEXT)
  index = new RateIndex(writeRateIndex({ states: [{ code: 'IL', result }], zipMeta: () => undefined }))
})

describe('parsing the ordmache file', () => {
  it('reads every Illinois record with its current and prior period, and leaves out other states and foreign countries', () => {
    const file = parseOrdmacheFile(TEXT, FILE)
    expect(file.rowsRead).toBe(LINES.length)
    expect(file.records).toHaveLength(LINES.filter(isIllinois).length)
    expect(file.excluded).toBe(LINES.filter((line) => !isIllinois(line)).length)
    expect(file.rejected).toEqual([])
    const abingdon = lineOf('048-0002-8')
    expect(name(abingdon)).toBe('ABINGDON')
    expect(file.records.find((r) => r.code === '048-0002-8')!.periods).toEqual([
      { ...prior(abingdon), varies: false },
      { ...current(abingdon), to: null, varies: false },
    ])
    // a prior period ending 9999-12-31 is the current one listed again
    const unchanged = LINES.find((line) => isIllinois(line) && line.slice(140, 148) === '99991231')!
    expect(file.records.find((r) => r.code === code(unchanged))!.periods).toEqual([{ ...current(unchanged), to: null, varies: false }])
  })
})

describe('compiling Illinois', () => {
  it('is well formed: every jurisdiction and candidate fits the model, and every ZIP\'s weights sum to 1', () => {
    for (const j of result.jurisdictions) JurisdictionRate.parse(j)
    const weights = new Map<string, number>()
    for (const c of result.candidates) {
      ZipCandidate.parse(c)
      weights.set(c.zip, (weights.get(c.zip) ?? 0) + c.weight)
    }
    for (const [zip, total] of weights) expect(total, zip).toBeCloseTo(1, 9)
    expect(result.effectiveDateBasis).toBe('publisher_effective_date')
    expect(result.edition).toBe(LINES.filter(isIllinois).map((l) => current(l).from).sort().at(-1))
  })

  it('Chicago 60601 answers the Chicago record: statewide 6.25% plus the record\'s local share', () => {
    const chicago = lineOf('016-0001-1')
    expect(name(chicago)).toBe('CHICAGO')
    const candidate = result.candidates.find((c) => c.zip === '60601')!
    expect(candidate).toMatchObject({ countyFips: '17031', placeName: 'Chicago' })
    expect(candidate.stack).toEqual([
      { level: 'state', code: '17' },
      { level: 'county', code: '031' },
      { level: 'city', code: '14000' },
      { level: 'district', code: '016-0001-1' },
    ])
    expect(combinedOn(candidate, '2026-11-21')).toBe(current(chicago).rate)
  })

  it('a record\'s prior period answers the dates in it, the current one after', () => {
    const abingdon = lineOf('048-0002-8')
    const candidate = zipCarrying('048-0002-8')
    expect(combinedOn(candidate, prior(abingdon).to)).toBe(prior(abingdon).rate)
    expect(combinedOn(candidate, current(abingdon).from)).toBe(current(abingdon).rate)
    expect(prior(abingdon).rate).not.toBe(current(abingdon).rate)
  })

  it('covers every record from the latest first day any record is known from', () => {
    const known = LINES.filter(isIllinois).map((l) => (l.slice(140, 148) === '99991231' ? current(l).from : prior(l).from))
    expect(result.coverageFrom).toBe(known.sort().at(-1))
    expect(result.jurisdictions.find((j) => j.level === 'state')).toMatchObject({ rate: STATE_RATE, from: known.sort()[0], to: null })
  })

  it('county numbers are alphabetical: the n-th county is FIPS 2n − 1, and the geography names it as the file does', () => {
    expect(illinoisCountyFips(1)).toBe('17001')
    expect(illinoisCountyFips(16)).toBe('17031')
    expect(geography.counties.get(illinoisCountyFips(countyNumber(lineOf('016-0001-1'))))?.name).toBe('Cook')
  })
})

describe('records whose rate varies by address', () => {
  const yLines = LINES.filter((line) => isIllinois(line) && flagged(line))
  const plainElsewhere = (line: string) =>
    LINES.find((other) => isIllinois(other) && !flagged(other) && !isCountyRecord(other) && name(other) === name(line) && countyNumber(other) !== countyNumber(line))

  it('a Y record with an unflagged record in another county answers its county record plus the city\'s increment there', () => {
    const y = yLines.find((line) => plainElsewhere(line) && zipCarryingOrNull(code(line)))!
    expect(y).toBeDefined()
    const other = plainElsewhere(y)!
    const expected = current(countyRecordOf(y)).rate + current(other).rate - current(countyRecordOf(other)).rate
    expect(combinedOn(zipCarrying(code(y)), '2026-11-21')).toBe(expected)
    expect(result.rateVaries!.find((r) => r.code === code(y))).toMatchObject({ kind: 'estimated', exact_source: ORDMACHA_FILE, basis: expect.stringContaining(code(other)) })
    expect(result.rateVaries!.find((r) => r.code === code(y))!.lower_bound).toBeUndefined()
  })

  it('a Y record with no unflagged record elsewhere answers its county record only, saying the city\'s own taxes are not included', () => {
    const y = yLines.find((line) => !plainElsewhere(line) && zipCarryingOrNull(code(line)))!
    expect(combinedOn(zipCarrying(code(y)), '2026-11-21')).toBe(current(countyRecordOf(y)).rate)
    expect(result.rateVaries!.find((r) => r.code === code(y))).toMatchObject({ kind: 'estimated', lower_bound: true, basis: expect.stringMatching(/only: the city has no unflagged record elsewhere/) })
  })

  it('a printed rate flagged as varying is answered as printed and listed as published', () => {
    const varying = LINES.find((line) => isIllinois(line) && !flagged(line) && line[89] === 'Y' && zipCarryingOrNull(code(line)))!
    expect(combinedOn(zipCarrying(code(varying)), '2026-11-21')).toBe(current(varying).rate)
    expect(result.rateVaries!.find((r) => r.code === code(varying))).toMatchObject({ kind: 'published', exact_source: ORDMACHA_FILE })
  })

  it('every Y record is listed, none unflagged and unvarying is', () => {
    const listed = new Set(result.rateVaries!.map((r) => r.code))
    for (const line of yLines) expect(listed.has(code(line)), code(line)).toBe(true)
    for (const line of LINES.filter((l) => isIllinois(l) && !flagged(l) && l[89] !== 'Y' && l[168] !== 'Y')) expect(listed.has(code(line)), code(line)).toBe(false)
  })
})

function zipCarryingOrNull(location: string): ZipCandidate | null {
  try {
    return zipCarrying(location)
  } catch {
    return null
  }
}

describe('duplicate codes (P21: key by code and window)', () => {
  const twice = LINES.map((line, i) => ({ line, n: i + 1 })).filter(({ line }, _, all) => all.filter((o) => code(o.line) === code(line)).length > 1)

  it('100-0001-1 (Marion, Williamson) is listed twice as at the source; the listings agree and are merged into one timeline', () => {
    expect(twice.map(({ line }) => code(line))).toEqual(['100-0001-1', '100-0001-1'])
    expect(result.notes).toContain(`${FILE}: 100-0001-1 is listed on lines ${twice[0]!.n} and ${twice[1]!.n} (as at the source); the listings agree on every day both cover and are merged`)
    const versions = result.jurisdictions.filter((j) => j.code === '100-0001-1').map(({ from, to, rate }) => ({ from, to, rate: rate + STATE_RATE }))
    const [a, b] = [twice[0]!.line, twice[1]!.line]
    expect(versions).toEqual([
      { from: prior(a).from, to: prior(a).to, rate: prior(a).rate },
      { from: current(a).from, to: null, rate: current(a).rate },
    ])
    expect([prior(b).rate, current(b).rate]).toEqual([current(a).rate, current(a).rate])
  })

  it('P21 duplicate codes that disagree fail the file, naming both lines and the day', () => {
    const [, second] = twice
    const text = withLines((lines) => {
      lines[second!.n - 1] = second!.line.slice(0, 69) + '09750' + second!.line.slice(74)
    })
    expect(() => compile(text)).toThrow(`${FILE}: 100-0001-1 is listed on lines ${twice[0]!.n} and ${second!.n} with different rates on ${current(second!.line).from} (0.09500 and 0.09750)`)
  })
})

describe('bad input', () => {
  it('P4 a record of the wrong length (layout drift) is rejected with a note; the rest compiles', () => {
    const text = withLines((lines) => {
      lines[4] = lines[4]!.slice(0, 210)
    })
    const file = parseOrdmacheFile(text, FILE)
    expect(file.rejected).toEqual([{ line: 5, reason: '210 characters, expected 211 (layout changed?)' }])
    expect(compile(text).notes).toContain(`${FILE} line 5 rejected: 210 characters, expected 211 (layout changed?)`)
  })

  it('P4 a first record of the wrong length fails the file', () => {
    const text = withLines((lines) => {
      lines[0] = `${lines[0]} `
    })
    expect(() => parseOrdmacheFile(text, FILE)).toThrow(`${FILE}: first record is not a valid ordmache record (line 1: 212 characters, expected 211 (layout changed?))`)
  })

  it('P4 more than 1% of records rejected fails the file', () => {
    const text = withLines((lines) => {
      for (let i = 1; i <= 20; i++) lines[i] = lines[i]!.slice(0, 200)
    })
    expect(() => parseOrdmacheFile(text, FILE)).toThrow(`${FILE}: 20 of ${LINES.length} records rejected (limit 1%)`)
  })

  it('P18 an unknown county code is rejected with a note naming it', () => {
    const text = withLines((lines) => {
      lines[9] = `103${lines[9]!.slice(3)}`
    })
    expect(parseOrdmacheFile(text, FILE).rejected).toEqual([{ line: 10, reason: 'unknown county code 103 (Illinois counties are 001–102; 200–250 other states, 500 foreign)' }])
  })

  it('P33 a period whose end precedes its start is rejected', () => {
    const at = LINES.findIndex((line, i) => i > 0 && isIllinois(line) && line.slice(140, 148) !== '99991231')
    const text = withLines((lines) => {
      const line = lines[at]!
      lines[at] = line.slice(0, 132) + line.slice(140, 148) + line.slice(132, 140) + line.slice(148)
    })
    const line = LINES[at]!
    expect(parseOrdmacheFile(text, FILE).rejected).toEqual([{ line: at + 1, reason: `prior period ends ${prior(line).from}, before it starts ${prior(line).to}` }])
  })

  it('P18 a county name that is not the geography\'s county of that number fails the file (the numbering changed)', () => {
    const at = LINES.findIndex((line) => code(line) === '016-0001-1')
    const text = withLines((lines) => {
      lines[at] = lines[at]!.slice(0, 35) + 'DUPAGE'.padEnd(25) + lines[at]!.slice(60)
    })
    expect(() => compile(text)).toThrow(`${FILE} line ${at + 1}: county number 16 is named DUPAGE, but FIPS 17031 is Cook (county numbering changed?)`)
  })
})
