// SST boundary file (headerless, ≥89 fields, layout in docs/sources-and-formats.md §4), read line
// by line so a 380 MB file never sits in memory. Each line becomes a typed row or a rejection.
import Papa from 'papaparse'
import { parseCompactDate } from '../compact-date.ts'
import { MAX_REJECTED_SHARE, type RejectedLine } from '../rejected-rows.ts'
import { OPEN_END_YEAR, trimCell } from './rate-file.ts'

/** 29 fixed fields + 20 district triplets; newer files carry extra trailing fields (trap P4). */
export const BOUNDARY_MIN_FIELDS = 89
const TRIPLETS_START = 29
const TRIPLET_COUNT = 20
/** Triplets of this type are location codes, not districts (WA `L####`, trap P8). */
export const LOCATION_CODE_TYPE = '45'
const REJECTIONS_KEPT = 100

export type BoundaryRecordType = 'Z' | '4' | 'A'
const RECORD_TYPES: readonly string[] = ['Z', '4', 'A']

export type Triplet = { codeSource: string; code: string; type: string }

export type BoundaryAddress = {
  zip: string
  plus4: number | null
  houseLow: string
  houseHigh: string
  oddEven: string
  preDirectional: string
  streetName: string
  streetSuffix: string
  postDirectional: string
  secondaryAbbreviation: string
  secondaryLow: string
  secondaryHigh: string
  secondaryOddEven: string
}

export type BoundaryRow = {
  /** 1-based line number */
  line: number
  type: BoundaryRecordType
  from: string
  /** null = open-ended */
  to: string | null
  /** Z/4: fields 18 and 20; A: the address ZIP (field 16) in both */
  zipLow: string
  zipHigh: string
  /** 4: fields 19 and 21 as integers (`1` = 0001, trap P7); A: field 17; Z: null */
  plus4Low: number | null
  plus4High: number | null
  address: BoundaryAddress | null
  cityName: string
  serCode: string
  stateFips: string
  /** 3 digits, null when blank */
  countyFips: string | null
  /** 5 digits, null when blank */
  placeFips: string | null
  placeClass: string
  districts: Triplet[]
  locationCodes: Triplet[]
}

export type BoundaryFileStats = {
  rowsRead: number
  rowsParsed: number
  byType: Record<BoundaryRecordType, number>
  /** unrecognised record types (after upper-casing) and how many rows carried each */
  unknownTypes: Record<string, number>
  unknownTypeRows: number
  rejectedCount: number
  /** the first rejections, for messages */
  rejected: RejectedLine[]
  firstRecordValid: boolean | null
}

type LineResult = { ok: true; row: BoundaryRow } | { ok: false; reason: string; unknownType?: string }

/** Splits one CSV line; the tokenizer only runs when quotes are present, which is rare and slow. */
function tokenize(line: string): { fields: string[] } | { error: string } {
  if (!line.includes('"')) return { fields: line.split(',') }
  const parsed = Papa.parse<string[]>(line, { header: false, delimiter: ',' })
  if (parsed.errors.length > 0) return { error: `CSV: ${parsed.errors[0].message}` }
  return { fields: parsed.data[0] ?? [] }
}

class RowError extends Error {}

function digits(text: string, min: number, max: number, what: string): string {
  if (!new RegExp(`^\\d{${min},${max}}$`).test(text)) throw new RowError(`${what}: not ${max} digits: ${JSON.stringify(text)}`)
  return text.padStart(max, '0')
}

function optionalDigits(text: string, min: number, max: number, what: string): string | null {
  return text === '' ? null : digits(text, min, max, what)
}

function plus4(text: string, what: string): number {
  if (!/^\d{1,4}$/.test(text)) throw new RowError(`${what}: not a ZIP+4 value: ${JSON.stringify(text)}`)
  return Number(text)
}

function date(text: string, what: string): string {
  const iso = parseCompactDate(text)
  if (!iso) throw new RowError(`${what}: not a date: ${JSON.stringify(text)}`)
  return iso
}

function triplets(fields: string[]): { districts: Triplet[]; locationCodes: Triplet[] } {
  const districts: Triplet[] = []
  const locationCodes: Triplet[] = []
  for (let i = 0; i < TRIPLET_COUNT; i++) {
    const at = TRIPLETS_START + i * 3
    const [codeSource, code, type] = [fields[at], fields[at + 1], fields[at + 2]]
    if (!codeSource && !code && !type) continue
    if (!code || !/^\d{1,2}$/.test(type)) {
      throw new RowError(`district triplet ${i + 1} incomplete: ${JSON.stringify([codeSource, code, type])}`)
    }
    const triplet = { codeSource, code, type: type.padStart(2, '0') }
    ;(triplet.type === LOCATION_CODE_TYPE ? locationCodes : districts).push(triplet)
  }
  return { districts, locationCodes }
}

function toRow(fields: string[], line: number, type: BoundaryRecordType): BoundaryRow {
  const from = date(fields[1], 'begin date')
  if (Number(from.slice(0, 4)) >= OPEN_END_YEAR) throw new RowError(`begin date is a sentinel: ${fields[1]}`)
  const endDate = date(fields[2], 'end date')
  const to = Number(endDate.slice(0, 4)) >= OPEN_END_YEAR ? null : endDate
  if (to !== null && to < from) throw new RowError('begin date after end date')

  let zipLow: string
  let zipHigh: string
  let plus4Low: number | null = null
  let plus4High: number | null = null
  let address: BoundaryAddress | null = null
  if (type === 'A') {
    const zip = digits(fields[15], 5, 5, 'address ZIP')
    const addressPlus4 = fields[16] === '' ? null : plus4(fields[16], 'address plus-4')
    zipLow = zipHigh = zip
    plus4Low = plus4High = addressPlus4
    address = {
      zip,
      plus4: addressPlus4,
      houseLow: fields[3],
      houseHigh: fields[4],
      oddEven: fields[5],
      preDirectional: fields[6],
      streetName: fields[7],
      streetSuffix: fields[8],
      postDirectional: fields[9],
      secondaryAbbreviation: fields[10],
      secondaryLow: fields[11],
      secondaryHigh: fields[12],
      secondaryOddEven: fields[13],
    }
  } else {
    zipLow = digits(fields[17], 5, 5, 'ZIP low')
    zipHigh = digits(fields[19], 5, 5, 'ZIP high')
    if (zipHigh < zipLow) throw new RowError(`ZIP range ${zipLow}-${zipHigh} is reversed`)
    if (type === '4') {
      plus4Low = plus4(fields[18], 'plus-4 low')
      plus4High = plus4(fields[20], 'plus-4 high')
      if (zipLow === zipHigh && plus4High < plus4Low) throw new RowError(`plus-4 range ${plus4Low}-${plus4High} is reversed`)
    }
  }

  return {
    line,
    type,
    from,
    to,
    zipLow,
    zipHigh,
    plus4Low,
    plus4High,
    address,
    cityName: fields[14],
    serCode: fields[21],
    stateFips: digits(fields[22], 2, 2, 'state FIPS'),
    countyFips: optionalDigits(fields[24], 1, 3, 'county FIPS'),
    placeFips: optionalDigits(fields[25], 1, 5, 'place FIPS'),
    placeClass: fields[26],
    ...triplets(fields),
  }
}

/** Parses one boundary line (without its line ending). */
export function parseBoundaryLine(text: string, line: number): LineResult {
  const tokens = tokenize(text)
  if ('error' in tokens) return { ok: false, reason: tokens.error }
  const fields = tokens.fields.map(trimCell)
  const type = fields[0].toUpperCase()
  if (!RECORD_TYPES.includes(type)) {
    return { ok: false, reason: `unknown record type ${JSON.stringify(fields[0])}`, unknownType: type }
  }
  if (fields.length < BOUNDARY_MIN_FIELDS) {
    return { ok: false, reason: `${fields.length} fields, expected at least ${BOUNDARY_MIN_FIELDS}` }
  }
  try {
    return { ok: true, row: toRow(fields, line, type as BoundaryRecordType) }
  } catch (error) {
    if (error instanceof RowError) return { ok: false, reason: error.message }
    throw error
  }
}

function emptyStats(): BoundaryFileStats {
  return {
    rowsRead: 0,
    rowsParsed: 0,
    byType: { Z: 0, '4': 0, A: 0 },
    unknownTypes: {},
    unknownTypeRows: 0,
    rejectedCount: 0,
    rejected: [],
    firstRecordValid: null,
  }
}

/** Accumulates a boundary file one line at a time, so sync and streamed input share one path. */
export class BoundaryLineReader {
  readonly stats = emptyStats()
  private line = 0

  constructor(private readonly onRow: (row: BoundaryRow) => void) {}

  /** Takes one line, with or without its line ending; blank lines are skipped. */
  add(raw: string): void {
    this.line++
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (trimCell(text) === '') return
    const stats = this.stats
    stats.rowsRead++
    const result = parseBoundaryLine(text, this.line)
    stats.firstRecordValid ??= result.ok
    if (result.ok) {
      stats.rowsParsed++
      stats.byType[result.row.type]++
      this.onRow(result.row)
      return
    }
    if (result.unknownType !== undefined) {
      stats.unknownTypeRows++
      stats.unknownTypes[result.unknownType] = (stats.unknownTypes[result.unknownType] ?? 0) + 1
    }
    stats.rejectedCount++
    if (stats.rejected.length < REJECTIONS_KEPT) stats.rejected.push({ line: this.line, reason: result.reason })
  }
}

/** The lines of a text one at a time: a 380 MB file is never also held as an array of its lines. */
function* linesOf(text: string): Generator<string> {
  let start = 0
  for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
    yield text.slice(start, end)
    start = end + 1
  }
  yield text.slice(start)
}

/** Reads a boundary file from its whole text or its lines, calling `onRow` for each valid row. */
export function readBoundaryLines(input: string | Iterable<string>, onRow: (row: BoundaryRow) => void): BoundaryFileStats {
  const reader = new BoundaryLineReader(onRow)
  for (const line of typeof input === 'string' ? linesOf(input) : input) reader.add(line)
  return reader.stats
}

/** Streamed variant: lines from e.g. a `readline` interface over the decoded file. */
export async function readBoundaryFile(
  input: string | Iterable<string> | AsyncIterable<string>,
  onRow: (row: BoundaryRow) => void,
): Promise<BoundaryFileStats> {
  if (typeof input === 'string' || Symbol.iterator in input) return readBoundaryLines(input, onRow)
  const reader = new BoundaryLineReader(onRow)
  for await (const line of input) reader.add(line)
  return reader.stats
}

/** Refuses a boundary file with no valid rows, an invalid first record, or >1% unknown-type or rejected rows (traps P1, P4, P5). */
export function assertBoundaryFileHealthy(stats: BoundaryFileStats, fileName: string): void {
  const example = stats.rejected[0] ? ` (line ${stats.rejected[0].line}: ${stats.rejected[0].reason})` : ''
  if (stats.rowsParsed === 0) throw new Error(`${fileName}: no valid boundary rows out of ${stats.rowsRead} read${example}`)
  if (stats.firstRecordValid === false) throw new Error(`${fileName}: first record is not a valid boundary row${example}`)
  const limit = stats.rowsRead * MAX_REJECTED_SHARE
  if (stats.unknownTypeRows > limit) {
    throw new Error(`${fileName}: ${stats.unknownTypeRows} of ${stats.rowsRead} rows have unknown record types ${JSON.stringify(stats.unknownTypes)}`)
  }
  if (stats.rejectedCount > limit) {
    throw new Error(`${fileName}: ${stats.rejectedCount} of ${stats.rowsRead} rows rejected (limit ${MAX_REJECTED_SHARE * 100}%)${example}`)
  }
}

/** True when `date` (ISO) falls inside the row's effective window; works for rate rows too. */
export function isActiveOn(row: { from: string; to: string | null }, date: string): boolean {
  return row.from <= date && (row.to === null || date <= row.to)
}

/**
 * The ZIPs of a row's 5-digit range that `allowedZips` accepts (the caller passes "ZIP is in this
 * state per geography", trap P22), and how many range values it refused. Ranges wider than
 * `maxWidth` throw rather than being enumerated blindly.
 */
export function expandZipRange(
  row: { zipLow: string; zipHigh: string },
  allowedZips: (zip: string) => boolean,
  maxWidth = 1000,
): { zips: string[]; dropped: number } {
  const low = Number(row.zipLow)
  const high = Number(row.zipHigh)
  const width = high - low + 1
  if (width > maxWidth) throw new RangeError(`ZIP range ${row.zipLow}-${row.zipHigh} spans ${width} ZIPs (limit ${maxWidth})`)
  const zips: string[] = []
  let dropped = 0
  for (let n = low; n <= high; n++) {
    const zip = String(n).padStart(5, '0')
    if (allowedZips(zip)) zips.push(zip)
    else dropped++
  }
  return { zips, dropped }
}

/** The plus-4 interval a `4` row covers inside one ZIP of its range (a row may run across ZIPs). */
export function plus4RangeWithin(row: BoundaryRow, zip: string): { low: number; high: number } {
  return {
    low: zip === row.zipLow ? (row.plus4Low ?? 0) : 0,
    high: zip === row.zipHigh ? (row.plus4High ?? 9999) : 9999,
  }
}
