// IDOR's machine-readable rate file `ordmache-current.txt` (docs/data-sources.md#illinois): one
// fixed-width record of 211 characters per locality × county, each with its current period and
// the prior one. Records that do not fit are rejected with a reason; too many rejections, or a bad
// first record, fail the file. Other states' records (county numbers 200–250) and "FOREIGN
// COUNTRIES" (500) exist for use tax only and are left out.
import { parseRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { parseCompactDate } from '../compact-date.ts'
import { MAX_REJECTED_SHARE, type RejectedLine } from '../rejected-rows.ts'
import type { Span } from '../rate-timeline.ts'

export const ORDMACHE_RECORD_LENGTH = 211
/** Illinois counties are numbered 001–102 in alphabetical order; their FIPS code is 2 × number − 1. */
export const ILLINOIS_COUNTIES = 102
const OTHER_STATES = { from: 200, to: 250 }
const FOREIGN = 500
/** A prior period ending on this day is the current one listed again (no change since). */
const OPEN_END = '9999-12-31'

export type OrdmacheRate = {
  /** general merchandise rate, state share included, 1e-5 units */
  general: number
  /** the file flags the rate as varying within the jurisdiction */
  varies: boolean
}

export type OrdmacheRecord = {
  /** 1-based line */
  line: number
  /** `CCC-NNNN-D`: county number, locality number, check digit */
  code: string
  countyNumber: number
  /** `5000` is the county's own record (its unincorporated area) */
  locality: string
  name: string
  countyName: string
  /** Y: the rate varies by address and the file prints none (the address file ordmacha has them) */
  addressRates: boolean
  /** the current period (open) and the prior one, each with its general rate */
  periods: (Span & { varies: boolean })[]
}

export type OrdmacheFile = {
  fileName: string
  records: OrdmacheRecord[]
  rejected: RejectedLine[]
  rowsRead: number
  /** records of other states and foreign countries, left out */
  excluded: number
}

class RecordError extends Error {}

function date(text: string, what: string): string {
  const iso = parseCompactDate(text)
  if (!iso) throw new RecordError(`${what}: not a date: ${JSON.stringify(text)}`)
  return iso
}

/** One 21-character rate group: four 5-digit percentages with three implied decimals, then a Y/N flag. */
function rateGroup(text: string, what: string): OrdmacheRate {
  const match = /^(\d{5})\d{15}([YN ])$/.exec(text)
  if (!match) throw new RecordError(`${what}: not a rate group: ${JSON.stringify(text)}`)
  const digits = match[1]!
  const parsed = parseRatePercent(`${digits.slice(0, 2)}.${digits.slice(2)}`)
  if (!parsed.ok) throw new RecordError(`${what}: ${parsed.reason}`)
  return { general: parsed.units, varies: match[2] === 'Y' }
}

function parseRecord(text: string, line: number): OrdmacheRecord | 'excluded' {
  if (text.length !== ORDMACHE_RECORD_LENGTH) throw new RecordError(`${text.length} characters, expected ${ORDMACHE_RECORD_LENGTH} (layout changed?)`)
  const code = text.slice(0, 10)
  const match = /^(\d{3})-(\d{4})-(\d)$/.exec(code)
  if (!match) throw new RecordError(`location code ${JSON.stringify(code)} is not CCC-NNNN-D`)
  const countyNumber = Number(match[1])
  if ((countyNumber >= OTHER_STATES.from && countyNumber <= OTHER_STATES.to) || countyNumber === FOREIGN) return 'excluded'
  if (countyNumber < 1 || countyNumber > ILLINOIS_COUNTIES) {
    throw new RecordError(`unknown county code ${match[1]} (Illinois counties are 001–${ILLINOIS_COUNTIES}; ${OTHER_STATES.from}–${OTHER_STATES.to} other states, ${FOREIGN} foreign)`)
  }
  const flag = text[60]
  if (flag !== 'Y' && flag !== 'N') throw new RecordError(`address flag ${JSON.stringify(flag)} is not Y or N`)
  const name = text.slice(10, 35).trim()
  const countyName = text.slice(35, 60).trim()
  if (!name || !countyName) throw new RecordError('blank locality or county name')

  const currentFrom = date(text.slice(61, 69), 'current period start')
  const current = rateGroup(text.slice(69, 90), 'current rate')
  const priorFrom = date(text.slice(132, 140), 'prior period start')
  const priorTo = date(text.slice(140, 148), 'prior period end')
  const prior = rateGroup(text.slice(148, 169), 'prior rate')
  if (priorTo < priorFrom) throw new RecordError(`prior period ends ${priorTo}, before it starts ${priorFrom}`)
  const periods: OrdmacheRecord['periods'] = [{ from: currentFrom, to: null, rate: current.general, varies: current.varies }]
  if (priorTo === OPEN_END) {
    if (priorFrom !== currentFrom) throw new RecordError(`prior period ${priorFrom}–${priorTo} is open but starts before the current one (${currentFrom})`)
  } else {
    if (priorTo >= currentFrom) throw new RecordError(`prior period ends ${priorTo}, not before the current one starts ${currentFrom}`)
    periods.unshift({ from: priorFrom, to: priorTo, rate: prior.general, varies: prior.varies })
  }
  return { line, code, countyNumber, locality: match[2]!, name, countyName, addressRates: flag === 'Y', periods }
}

export function parseOrdmacheFile(text: string, fileName: string): OrdmacheFile {
  const records: OrdmacheRecord[] = []
  const rejected: RejectedLine[] = []
  let rowsRead = 0
  let excluded = 0
  let firstValid: boolean | null = null
  text.split('\n').forEach((raw, index) => {
    const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (body.trim() === '') return
    rowsRead++
    try {
      const record = parseRecord(body, index + 1)
      firstValid ??= true
      if (record === 'excluded') excluded++
      else records.push(record)
    } catch (error) {
      if (!(error instanceof RecordError)) throw error
      firstValid ??= false
      rejected.push({ line: index + 1, reason: error.message })
    }
  })
  const example = rejected[0] ? ` (line ${rejected[0].line}: ${rejected[0].reason})` : ''
  if (records.length === 0) throw new Error(`${fileName}: no Illinois records out of ${rowsRead} read${example}`)
  if (firstValid === false) throw new Error(`${fileName}: first record is not a valid ordmache record${example}`)
  if (rejected.length > rowsRead * MAX_REJECTED_SHARE) {
    throw new Error(`${fileName}: ${rejected.length} of ${rowsRead} records rejected (limit ${MAX_REJECTED_SHARE * 100}%)${example}`)
  }
  return { fileName, records, rejected, rowsRead, excluded }
}
