// The aggregator drop's reader: Avalara's free ZIP5 rate tables (TAXRATES_ZIP5_<ST><YYYYMM>.csv), an
// aggregator's estimate (trap P39), read into rows. The avalara-zip5 feed serves them
// (feeds/avalara-zip5/); an official feed places the ZIPs it lacks with them (unlisted-zips.ts,
// lower-bound-defaults.ts); the audits compare with them.
//
// Parsing decisions, all checked against the three held editions (201804, 201911, 202512):
// - columns are found by header name; 2018/2019 put StateRate before EstimatedCombinedRate, 2025 after.
// - ZIPs are never padded: every held row has a 5-digit ZIP, so a 4-digit one means the file went
//   through a spreadsheet and the row is rejected rather than guessed.
// - rates are read as text. Avalara prints 6 decimals; the API serves 5 (api.md "Simple answer"), so a 6th digit is
//   rounded half-up to 1e-5: that repairs export artefacts (0.048499 for UT's 4.85%) and brings
//   genuinely finer rates (NM's 0.074375, MO's 0.030625) to the served precision. Rounded cells are
//   counted in the notes.
// - a row whose parts do not sum to the combined rate is rejected; so is a row with U+FFFD in it
//   (202512 AR has one, P11) and, when the text lacks a final line break, the last row (truncated).
// - a ZIP listed twice with the same rates is kept once (noted); with other rates, the file fails
//   (feeds/rate-row-conflicts.ts).
// - more than 1% rejected rows, or no rows at all, fails the whole file.
import Papa from 'papaparse'
import * as z from 'zod'
import { AGGREGATOR_FILE_NAME } from '../../snapshot-contract/feed-traits.ts'
import { formatRate, parseRateFraction, type ParsedRate } from '../../snapshot-contract/rate-units.ts'
import { conflictNotes, contradictionError, findRowConflicts } from './rate-row-conflicts.ts'
import { MAX_REJECTED_SHARE } from './rejected-rows.ts'

const REQUIRED_COLUMNS = [
  'State',
  'ZipCode',
  'TaxRegionName',
  'StateRate',
  'EstimatedCombinedRate',
  'EstimatedCountyRate',
  'EstimatedCityRate',
  'EstimatedSpecialRate',
] as const
const FILE_NAME = AGGREGATOR_FILE_NAME

export type AvalaraEdition = { state: string; edition: string; editionDate: string }

export type AvalaraRow = {
  state: string
  zip: string
  taxRegionName: string
  stateRate: number
  combinedRate: number
  countyRate: number
  cityRate: number
  specialRate: number
  riskLevel: number | null
}

export type AvalaraRejection = { row: number; zip: string; reason: string }

export type AvalaraZip5File = {
  fileName: string
  state: string
  edition: AvalaraEdition
  rows: AvalaraRow[]
  rejected: AvalaraRejection[]
  rowsRead: number
  /** rate cells whose 6th-decimal float artefact was rounded away */
  repairedRates: number
  /** what was rejected or repaired, for the feed report */
  notes: string[]
}

const baseName = (name: string) => name.split(/[\\/]/).pop() ?? name

/** `TAXRATES_ZIP5_NY202512.csv` → { state: 'NY', edition: '202512', editionDate: '2025-12-01' }. */
export function avalaraEdition(fileName: string): AvalaraEdition {
  const match = FILE_NAME.exec(baseName(fileName))
  const month = Number(match?.[3])
  if (!match || month < 1 || month > 12) {
    throw new Error(`${fileName}: not an Avalara ZIP5 table name (expected TAXRATES_ZIP5_<ST><YYYYMM>.csv)`)
  }
  return { state: match[1]!.toUpperCase(), edition: match[2]! + match[3]!, editionDate: `${match[2]}-${match[3]}-01` }
}

export type AvalaraDrop = AvalaraEdition & { path: string }

/**
 * Every edition held for `state` among paths found in a drop directory tree
 * (`202512/TAXRATES_ZIP5_NY202512.csv`), oldest first; other files (Avalara's PDF) are ignored.
 */
export function heldDrops(fileNames: string[], state: string): AvalaraDrop[] {
  const wanted = state.toUpperCase()
  const matches = fileNames
    .filter((name) => FILE_NAME.test(baseName(name)))
    .map((name) => ({ path: name, ...avalaraEdition(name) }))
    .filter((file) => file.state === wanted)
    .sort((a, b) => a.edition.localeCompare(b.edition))
  matches.forEach((file, i) => {
    const next = matches[i + 1]
    if (next && next.edition === file.edition) throw new Error(`two ${wanted} drops of edition ${file.edition}: ${file.path} and ${next.path}`)
  })
  return matches
}

/** The newest edition for `state` among the paths of a drop directory tree; undefined when none. */
export const pickNewestDrop = (fileNames: string[], state: string): AvalaraDrop | undefined => heldDrops(fileNames, state).at(-1)

type RateRead = { units: number; repaired: boolean }

/** Parses Avalara's 6-decimal rate text, rounding half-up to 1e-5 (see the header comment). */
export function parseAvalaraRate(text: string): ({ ok: true } & RateRead) | { ok: false; reason: string } {
  const direct: ParsedRate = parseRateFraction(text)
  if (direct.ok) return { ok: true, units: direct.units, repaired: false }
  const finer = /^(\d*\.\d{5})(\d+)$/.exec(text.trim())
  if (!finer) return direct
  const kept = parseRateFraction(finer[1]!)
  if (!kept.ok) return kept
  return { ok: true, units: kept.units + (Number(finer[2]![0]) >= 5 ? 1 : 0), repaired: true }
}

const rateText = z.string().transform((text, ctx) => {
  const parsed = parseAvalaraRate(text)
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.reason })
    return z.NEVER
  }
  return parsed
})

const RowSchema = z.object({
  State: z.string().regex(/^[A-Z]{2}$/, 'State is not a 2-letter code'),
  ZipCode: z.string().regex(/^\d{5}$/, 'ZipCode is not 5 digits'),
  TaxRegionName: z
    .string()
    .min(1, 'TaxRegionName is blank')
    .refine((name) => !name.includes('\uFFFD'), 'TaxRegionName holds U+FFFD (damaged encoding upstream, P11)'),
  StateRate: rateText,
  EstimatedCombinedRate: rateText,
  EstimatedCountyRate: rateText,
  EstimatedCityRate: rateText,
  EstimatedSpecialRate: rateText,
  RiskLevel: z
    .string()
    .regex(/^\d*$/, 'RiskLevel is not a whole number')
    .optional()
    .transform((level) => (level ? Number(level) : null)),
})

type RawRow = Record<string, string | undefined>

function validateRow(raw: RawRow, fileState: string): { ok: true; row: AvalaraRow; repaired: number } | { ok: false; reason: string } {
  const parsed = RowSchema.safeParse(raw)
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`).join('; ') }
  }
  const r = parsed.data
  if (r.State !== fileState) return { ok: false, reason: `State ${r.State} in a ${fileState} file` }
  const parts = [r.StateRate, r.EstimatedCountyRate, r.EstimatedCityRate, r.EstimatedSpecialRate]
  const sum = parts.reduce((total, part) => total + part.units, 0)
  const rounded = [...parts, r.EstimatedCombinedRate].filter((part) => part.repaired).length
  // Rounding each part to 1e-5 may move their sum by a unit per rounded part; more is a real mismatch.
  if (Math.abs(sum - r.EstimatedCombinedRate.units) > rounded) {
    return { ok: false, reason: `state + county + city + special = ${sum} ≠ combined ${r.EstimatedCombinedRate.units} (1e-5 units)` }
  }
  return {
    ok: true,
    repaired: rounded,
    row: {
      state: r.State,
      zip: r.ZipCode,
      taxRegionName: r.TaxRegionName.trim(),
      stateRate: r.StateRate.units,
      // the served combined rate is always the sum of the served parts
      combinedRate: sum,
      countyRate: r.EstimatedCountyRate.units,
      cityRate: r.EstimatedCityRate.units,
      specialRate: r.EstimatedSpecialRate.units,
      riskLevel: r.RiskLevel,
    },
  }
}

export function parseAvalaraZip5(text: string, fileName: string): AvalaraZip5File {
  const edition = avalaraEdition(fileName)
  const parsed = Papa.parse<RawRow>(text, {
    header: true,
    delimiter: ',',
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.replace(/^\uFEFF/, '').trim(),
  })
  const header = parsed.meta.fields ?? []
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column))
  if (missing.length) {
    throw new Error(
      `${fileName}: changed column layout: missing ${missing.join(', ')}; header found: ${header.join(', ') || '(none)'}`,
    )
  }

  const problems = new Map<number, string>()
  for (const error of parsed.errors) {
    if (error.row !== undefined) problems.set(error.row, `${error.code}: ${error.message}`)
  }
  const last = parsed.data.length - 1
  if (last >= 0 && !/\r?\n$/.test(text)) {
    problems.set(last, 'file does not end with a line break: the last row may be cut off (truncated file)')
  }

  const valid: { row: AvalaraRow; line: number }[] = []
  const rejected: AvalaraRejection[] = []
  let repairedRates = 0
  parsed.data.forEach((raw, index) => {
    const reject = (reason: string) => rejected.push({ row: index + 1, zip: raw.ZipCode ?? '', reason })
    const problem = problems.get(index)
    if (problem) return reject(problem)
    const result = validateRow(raw, edition.state)
    if (!result.ok) return reject(result.reason)
    repairedRates += result.repaired
    valid.push({ row: result.row, line: index + 1 })
  })
  // A ZIP listed twice: the copies collapsed when they agree, the file failed when they do not.
  const conflicts = findRowConflicts(valid, ({ row, line }) => ({
    jurisdiction: row.zip,
    from: edition.editionDate,
    to: null,
    rates: [row.stateRate, row.countyRate, row.cityRate, row.specialRate],
    where: `row ${line} (${row.zip}, ${row.taxRegionName})`,
  }))
  if (conflicts.contradictions.length > 0) {
    throw contradictionError(fileName, conflicts.contradictions, (f) => `state/county/city/special ${f.rates.map((r) => formatRate(r ?? 0)).join('/')}`)
  }
  const rows = conflicts.kept.map(({ row }) => row)

  const rowsRead = parsed.data.length
  const sample = rejected.slice(0, 3).map((r) => `row ${r.row} (${r.zip}): ${r.reason}`).join(' | ')
  if (rows.length === 0) throw new Error(`${fileName}: no usable rows (${rowsRead} read, ${rejected.length} rejected${sample ? `, e.g. ${sample}` : ''})`)
  if (rejected.length > rowsRead * MAX_REJECTED_SHARE) {
    throw new Error(`${fileName}: ${rejected.length} of ${rowsRead} rows rejected (over ${MAX_REJECTED_SHARE * 100}%), e.g. ${sample}`)
  }
  const notes: string[] = []
  if (rejected.length) notes.push(`${rejected.length} of ${rowsRead} rows rejected: ${rejected.map((r) => `row ${r.row} ${r.zip}: ${r.reason}`).join(' | ')}`)
  if (repairedRates) notes.push(`${repairedRates} rate cells printed with 6 decimals were rounded half-up to the served 1e-5 precision`)
  notes.push(...conflictNotes(fileName, conflicts))
  return { fileName, state: edition.state, edition, rows, rejected, rowsRead, repairedRates, notes }
}
