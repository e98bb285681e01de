// SST rate file (headerless, 9 fields, layout in docs/sources-and-formats.md §3) → validated rows.
// Rows that do not fit are rejected with a reason; `assertRateFileHealthy` turns too many
// rejections, or a bad first row, into a failed file (pitfalls P1, P4).
import Papa from 'papaparse'
import * as z from 'zod'
import { parseRateFraction } from '../../../snapshot-contract/rate-units.ts'
import { parseCompactDate } from '../compact-date.ts'
import { MAX_REJECTED_SHARE, type RejectedLine } from '../rejected-rows.ts'

export const RATE_FILE_FIELDS = 9
/** End dates in or after this year are open-ended sentinels (`29991231`, `99991231`), trap P9. */
export const OPEN_END_YEAR = 2900

export const SstBeginDate = z.string().transform((text, ctx) => {
  const iso = parseCompactDate(text)
  if (!iso || Number(iso.slice(0, 4)) >= OPEN_END_YEAR) {
    ctx.addIssue({ code: 'custom', message: `not a begin date: ${JSON.stringify(text)}` })
    return z.NEVER
  }
  return iso
})

/** An end date; sentinel years map to null (open), other far dates such as 2078-12-31 stay real. */
export const SstEndDate = z.string().transform((text, ctx) => {
  const iso = parseCompactDate(text)
  if (!iso) {
    ctx.addIssue({ code: 'custom', message: `not an end date: ${JSON.stringify(text)}` })
    return z.NEVER
  }
  return Number(iso.slice(0, 4)) >= OPEN_END_YEAR ? null : iso
})

/** General rates are required: a blank general rate rejects the row. */
const RequiredRate = z.string().transform((text, ctx) => {
  const parsed = parseRateFraction(text)
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.reason })
    return z.NEVER
  }
  return parsed.units
})

/** Food/drug rates may be blank (VT): blank is null, never 0 (trap P10). */
const OptionalRate = z.string().transform((text, ctx): number | null => {
  if (text === '') return null
  const parsed = parseRateFraction(text)
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.reason })
    return z.NEVER
  }
  return parsed.units
})

export const SstRateRecord = z
  .object({
    stateFips: z.string().regex(/^\d{2}$/, 'a 2-digit state FIPS'),
    typeCode: z
      .string()
      .regex(/^\d{1,2}$/, 'a 1- or 2-digit type code')
      .transform((code) => code.padStart(2, '0')),
    code: z.string().regex(/^[A-Za-z0-9]+$/, 'an alphanumeric jurisdiction code'),
    generalIntra: RequiredRate,
    generalInter: RequiredRate,
    foodIntra: OptionalRate,
    foodInter: OptionalRate,
    from: SstBeginDate,
    to: SstEndDate,
  })
  .refine((row) => row.to === null || row.from <= row.to, { message: 'begin date after end date' })

export type SstRateRow = z.infer<typeof SstRateRecord> & {
  /** 1-based record number in the file */
  line: number
}

export type SstRateFile = { rows: SstRateRow[]; rejected: RejectedLine[]; rowsRead: number }

const FIELD_NAMES = ['stateFips', 'typeCode', 'code', 'generalIntra', 'generalInter', 'foodIntra', 'foodInter', 'from', 'to'] as const

/**
 * Trims spaces, tabs and stray carriage returns only. String#trim would also eat U+FEFF, hiding a
 * BOM glued to the first field, which must fail the file instead (trap P1).
 */
export function trimCell(cell: string): string {
  return cell.replace(/^[ \t\r]+|[ \t\r]+$/g, '')
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'row'}: ${issue.message}`).join('; ')
}

/** Parses a whole rate file's text (BOM already stripped by the decoder; CRLF or LF). */
export function parseRateFile(text: string): SstRateFile {
  const parsed = Papa.parse<string[]>(text, { header: false, delimiter: ',', skipEmptyLines: false })
  const tokenizerErrors = new Map<number, string>()
  for (const error of parsed.errors) {
    if (error.row !== undefined) tokenizerErrors.set(error.row, error.message)
  }

  const rows: SstRateRow[] = []
  const rejected: RejectedLine[] = []
  let rowsRead = 0
  parsed.data.forEach((fields, index) => {
    if (fields.every((field) => trimCell(field) === '')) return
    rowsRead++
    const line = index + 1
    const reject = (reason: string) => rejected.push({ line, reason })
    const tokenizerError = tokenizerErrors.get(index)
    if (tokenizerError) return reject(`CSV: ${tokenizerError}`)
    if (fields.length !== RATE_FILE_FIELDS) {
      return reject(`${fields.length} fields, expected ${RATE_FILE_FIELDS} (column layout changed?)`)
    }
    const record = Object.fromEntries(FIELD_NAMES.map((name, i) => [name, trimCell(fields[i])]))
    const result = SstRateRecord.safeParse(record)
    if (!result.success) return reject(describeIssues(result.error))
    rows.push({ ...result.data, line })
  })
  return { rows, rejected, rowsRead }
}

/** Refuses a rate file that parsed to nothing, whose first record is invalid, or with >1% rejected rows. */
export function assertRateFileHealthy(result: SstRateFile, fileName: string): void {
  const { rows, rejected, rowsRead } = result
  const example = rejected[0] ? ` (line ${rejected[0].line}: ${rejected[0].reason})` : ''
  if (rowsRead === 0 || rows.length === 0) {
    throw new Error(`${fileName}: no valid rate rows out of ${rowsRead} read${example}`)
  }
  if (rejected.length > 0 && rejected[0].line < rows[0].line) {
    throw new Error(`${fileName}: first record is not a valid rate row${example}`)
  }
  if (rejected.length > rowsRead * MAX_REJECTED_SHARE) {
    throw new Error(`${fileName}: ${rejected.length} of ${rowsRead} rows rejected (limit ${MAX_REJECTED_SHARE * 100}%)${example}`)
  }
}
