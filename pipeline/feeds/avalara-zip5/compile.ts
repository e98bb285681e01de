// Avalara's free ZIP5 rate tables (TAXRATES_ZIP5_<ST><YYYYMM>.csv): an aggregator's estimate,
// used for states without a machine-readable official source. Not an official source (trap P39).
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
import { stateByCode } from '../../../sources/index.ts'
import { AGGREGATOR_FILE_NAME } from '../../../snapshot-contract/feed-traits.ts'
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, RawFile, ZipCandidate } from '../../../snapshot-contract/model.ts'
import { formatRate, parseRateFraction, type ParsedRate } from '../../../snapshot-contract/rate-units.ts'
import { conflictNotes, contradictionError, findRowConflicts } from '../rate-row-conflicts.ts'
import { JurisdictionTable, countyCandidates, countyCode, countyName, zipsInState } from '../candidate-weights.ts'
import { aggregatorDefaults, type RowCandidate, type RuleSettings } from '../aggregator-defaults.ts'
import { regionCityNamer } from '../region-city.ts'

export const AVALARA_LABEL = 'Avalara estimate (aggregator, not an official source)'

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
const MAX_REJECTED_SHARE = 0.01
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

// ---------------------------------------------------------------------------------------------
// Compile

export type CompileAvalaraInput = {
  state: string
  rows: AvalaraRow[]
  fileName: string
  edition: AvalaraEdition
  geography: Geography
  /** rows in the file before rejection (defaults to rows.length); rejections are reported by the parser's notes */
  rowsRead?: number
  /** the rows the parser rejected: a ZIP left with none is listed in `rejectedZips` */
  rejected?: AvalaraRejection[]
  files?: RawFile[]
  /** the choice rules to apply (`make audit` compares variants); the service's by default */
  ruleSettings?: RuleSettings
}

/** Most frequent value (0 for none); ties go to the larger value so the choice is stable. */
function mode(values: number[]): number {
  const counts = new Map<number, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0
}

export function compileAvalara(input: CompileAvalaraInput): FeedResult {
  const { state, fileName, geography } = input
  const { edition, editionDate } = input.edition
  if (input.edition.state !== state) throw new Error(`${fileName}: edition of ${input.edition.state}, compiled as ${state}`)
  const source = baseName(fileName)
  const table = new JurisdictionTable({ state, from: editionDate, to: null, source })
  const stateName = stateByCode(state)?.name ?? state

  // P23: a border ZIP in two states' files belongs to the state geography assigns it to.
  const elsewhere: string[] = []
  const kept = input.rows.filter((row) => {
    const zip = geography.zips.get(row.zip)
    if (!zip || zip.state === state || zip.states.includes(state)) return true
    elsewhere.push(`${row.zip} (geography: ${zip.state})`)
    return false
  })
  const unknown = kept.filter((row) => !geography.zips.has(row.zip)).length
  const topCounty = (zipCode: string): string | null => {
    const zip = geography.zips.get(zipCode)
    return zip ? countyCandidates(zip, state)[0]!.fips : null
  }

  // An aggregator can give one county different rates in different ZIPs; then each ZIP gets its own code.
  const countyRates = new Map<string, Set<number>>()
  for (const row of kept) {
    const fips = topCounty(row.zip)
    if (fips) countyRates.set(fips, (countyRates.get(fips) ?? new Set()).add(row.countyRate))
  }
  const mainStateRate = mode(kept.map((row) => row.stateRate))
  let stateVariants = 0
  const stateJurisdiction = (row: AvalaraRow): JurisdictionRef => {
    if (row.stateRate === mainStateRate) return table.add('state', state, stateName, row.stateRate)
    stateVariants++
    return table.add('state', `${state}:${row.zip}`, `${stateName} state share (${row.taxRegionName})`, row.stateRate)
  }

  const cityName = regionCityNamer(geography, state, kept.map((row) => row.taxRegionName))
  const rowCandidates: RowCandidate[] = kept.map((row) => {
    const fips = topCounty(row.zip)
    const zipCode = `zip:${row.zip}`
    const stateRef = stateJurisdiction(row)
    const county = fips ? countyName(geography, fips) || row.taxRegionName : row.taxRegionName
    const code = !fips ? zipCode : countyRates.get(fips)!.size === 1 ? countyCode(fips) : `${countyCode(fips)}:${row.zip}`
    const city = row.cityRate > 0 ? cityName(row.taxRegionName, geography.zips.get(row.zip)) : ''
    const stack: JurisdictionRef[] = [stateRef, table.add('county', code, county, row.countyRate)]
    if (row.cityRate > 0) stack.push(table.add('city', zipCode, city, row.cityRate))
    if (row.specialRate > 0) stack.push(table.add('district', zipCode, `Special districts (${row.taxRegionName})`, row.specialRate))
    const candidate: ZipCandidate = { zip: row.zip, state, countyFips: fips, countyName: fips ? countyName(geography, fips) : '', placeFips: null, placeName: city, weight: 1, stack }
    return { row, candidate, countyFips: fips }
  })
  const { candidates, notes: restated } = aggregatorDefaults(geography, state, rowCandidates, input.ruleSettings)

  const covered = new Set(kept.map((row) => row.zip))
  const rejectedZips = new Map<string, string>()
  for (const { zip, reason } of input.rejected ?? []) {
    if (/^\d{5}$/.test(zip) && !covered.has(zip) && !rejectedZips.has(zip)) rejectedZips.set(zip, reason)
  }
  const missing = zipsInState(geography, state).filter((zip) => !covered.has(zip.zip)).length
  const notes = [`${AVALARA_LABEL}; edition ${edition}, no row dates: every rate is dated from the edition month`]
  if (elsewhere.length) notes.push(`${elsewhere.length} border ZIPs dropped as geography assigns them to another state (trap P23): ${elsewhere.join(', ')}`)
  if (unknown) notes.push(`${unknown} ZIPs unknown to geography kept without a county`)
  if (missing) notes.push(`${missing} geography ZIPs of ${state} have no row in this file`)
  notes.push(...restated)
  if (stateVariants) notes.push(`${stateVariants} ZIPs carry a state rate other than ${mainStateRate} (e.g. tribal areas); each has its own state-level code`)

  return {
    jurisdictions: table.list(),
    candidates,
    unplaced: [],
    edition,
    effectiveThrough: editionDate,
    effectiveDateBasis: 'edition_only',
    rowsRead: input.rowsRead ?? input.rows.length,
    rowsParsed: input.rows.length,
    files: input.files ?? [],
    notes,
    ...(rejectedZips.size ? { rejectedZips: [...rejectedZips].map(([zip, reason]) => ({ zip, reason: `row rejected: ${reason}` })) } : {}),
  }
}
