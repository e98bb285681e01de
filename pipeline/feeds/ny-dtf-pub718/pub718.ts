// New York DTF Publication 718, "New York State Sales and Use Tax Rates by Jurisdiction"
// (docs/data-sources.md#new-york; publisher-evidence-remaining.md §1.2): one page, the table set in
// three newsletter columns, each headed `County or other locality | Tax rate % | Reporting code`.
// A row is `[*]<name> <whole>[<fraction glyph>] <4-digit code>`: "New York State only" (the state's
// 4%), a county, a county written `<County> – except` followed by its `<City> (city)` rows, or "New
// York City" (one row for its five counties). `*` marks the jurisdictions whose rate includes the
// 3/8% MCTD tax. Cross-reference rows ("*Bronx – see New York City") carry no rate.
//
// pdf.js gives the text in content-stream order; the rows are put in reading order from their
// coordinates: the three columns are found by their "County" heads, and each column is read top to
// bottom. That order is then checked: the state row at 4, the New York City row, a fraction glyph
// somewhere (their absence is text decoded wrong), at least as many rows as the 2/25 edition, no
// code twice, and every city row under an "except" county. A file failing any of these fails.
import { pdfTextItems, linesOf, type PdfTextItem } from '../pdf-text.ts'
import { EFFECTIVE_DATE, monthNameDateIso } from '../printed-dates.ts'

export type Pub718RowKind = 'state' | 'county' | 'except' | 'city' | 'nyc'

export type Pub718Row = {
  kind: Pub718RowKind
  /** the name as printed, without `*`, "– except" or "(city)" */
  name: string
  /** the total rate, the state's 4% included, in 1e-5 units */
  rate: number
  /** the reporting code (changes with the rate: not a key across editions) */
  code: string
  /** the rate includes the 3/8% Metropolitan Commuter Transportation District tax */
  mctd: boolean
  /** a city row: the county of the "except" row it is read under */
  county?: string
  /** the line as read */
  line: string
}

export type Pub718 = { fileName: string; label: string | null; effective: string; rows: Pub718Row[]; crossReferences: string[] }

/** Rows of the 2/25 edition (publisher-evidence-remaining.md §1.5): fewer is a file read wrong. */
export const PUB718_LEAST_ROWS = 77

const FRACTIONS: Record<string, number> = { '½': 500, '¼': 250, '¾': 750, '⅛': 125, '⅜': 375, '⅝': 625, '⅞': 875 }
const FRACTION = /[½¼¾⅛⅜⅝⅞]/
const ROW = /^(\*?)\s*(.+?)\s+(\d{1,2})([½¼¾⅛⅜⅝⅞])?\s+(\d{4})$/
const CROSS_REFERENCE = /see\s+New\s+York\s+City/i
const EXCEPT = /^(.*?)\s*[\u2010-\u2015\u2212-]\s*except$/i
const CITY = /^(.*?)\s*\(city\)$/i
const LABEL = /Publication\s+718\s*\((\d{1,2}\/\d{2})\)/
/** Rates Pub 718 can print, the state's 4% included: below or above is a misread. */
const LEAST_RATE = 4000
const MOST_RATE = 10000

/** A line as extracted, with tabs and the unexplained marker glyph before some city names set aside. */
const cleanLine = (text: string) => text.replace(/\s+/g, ' ').replace(/^[^A-Za-z*]+/, '').trim()

/** The three columns' text lines in reading order, each column read top to bottom below its heads. */
function columnLines(items: PdfTextItem[], fileName: string): string[] {
  const heads = items.filter((item) => item.page === 1 && /^County\b/.test(item.text.trim())).sort((a, b) => a.x - b.x)
  if (heads.length !== 3) {
    throw new Error(`${fileName}: ${heads.length} "County or other locality" column heads on page 1, not 3: the table's layout changed or its text is out of order, so its rows cannot be read in order`)
  }
  const top = Math.min(...heads.map((head) => head.y))
  const lines: string[] = []
  heads.forEach((head, i) => {
    const left = head.x - 6
    const right = i + 1 < heads.length ? heads[i + 1]!.x - 6 : Infinity
    const inColumn = items.filter((item) => item.page === 1 && item.y < top - 1 && item.x >= left && item.x < right)
    lines.push(...linesOf(inColumn).map((line) => cleanLine(line.text)))
  })
  return lines
}

export async function parsePub718(bytes: Uint8Array, fileName: string): Promise<Pub718> {
  const items = await pdfTextItems(bytes, fileName)
  const all = items.map((item) => item.text).join(' ')
  if (!/Publication\s+718/.test(all)) throw new Error(`${fileName}: no "Publication 718" in its text: not the publication expected`)
  if (!FRACTION.test(all)) throw new Error(`${fileName}: no fraction glyph (½ ¼ ¾ ⅛ ⅜ ⅝ ⅞) anywhere in its text: the glyphs were decoded wrong, so no rate can be trusted`)
  const date = EFFECTIVE_DATE.exec(all)
  const effective = date && monthNameDateIso(date[1]!, date[2]!, date[3]!)
  if (!effective) throw new Error(`${fileName}: no "Effective <Month D, YYYY>" line, so its rates have no date`)

  const rows: Pub718Row[] = []
  const crossReferences: string[] = []
  let except: string | null = null
  for (const line of columnLines(items, fileName)) {
    if (CROSS_REFERENCE.test(line)) {
      crossReferences.push(line)
      except = null
      continue
    }
    const match = ROW.exec(line)
    if (!match) continue
    const [, star, printed, whole, fraction, code] = match
    const rate = Number(whole) * 1000 + (fraction ? FRACTIONS[fraction]! : 0)
    if (rate < LEAST_RATE || rate > MOST_RATE) throw new Error(`${fileName}: "${line}": a rate of ${whole}${fraction ?? ''}% is no New York rate: misread`)
    const base = { rate, code: code!, mctd: star === '*', line }
    const city = CITY.exec(printed!)
    const county = EXCEPT.exec(printed!)
    if (city) {
      if (!except) throw new Error(`${fileName}: "${line}": a city row read under no "– except" county: the text is out of order`)
      rows.push({ ...base, kind: 'city', name: city[1]!.trim(), county: except })
    } else if (county) {
      except = county[1]!.trim()
      rows.push({ ...base, kind: 'except', name: except })
    } else {
      except = null
      const name = printed!.trim()
      const kind = /^New York State only$/i.test(name) ? 'state' : /^New York City$/i.test(name) ? 'nyc' : 'county'
      rows.push({ ...base, kind, name })
    }
  }

  const state = rows.filter((row) => row.kind === 'state')
  if (state.length !== 1 || state[0]!.rate !== 4000) throw new Error(`${fileName}: ${state.length ? `the "New York State only" row reads ${state[0]!.rate / 1000}%, not 4%` : 'no "New York State only" row'}: the text is out of order or misread`)
  if (rows.filter((row) => row.kind === 'nyc').length !== 1) throw new Error(`${fileName}: no single "New York City" row: the text is out of order or misread`)
  if (rows.length < PUB718_LEAST_ROWS) throw new Error(`${fileName}: ${rows.length} rate rows read, fewer than the ${PUB718_LEAST_ROWS} of the 2/25 edition: rows lost or out of order`)
  const codes = new Map<string, string>()
  for (const row of rows) {
    const other = codes.get(row.code)
    if (other) throw new Error(`${fileName}: reporting code ${row.code} on two rows ("${other}", "${row.line}"): the text is out of order or misread`)
    codes.set(row.code, row.line)
  }
  for (const row of rows.filter((r) => r.kind === 'except')) {
    if (!rows.some((r) => r.kind === 'city' && r.county === row.name)) throw new Error(`${fileName}: "${row.line}" is followed by no "(city)" row: the text is out of order`)
  }
  return { fileName, label: LABEL.exec(all)?.[1] ?? null, effective, rows, crossReferences }
}
