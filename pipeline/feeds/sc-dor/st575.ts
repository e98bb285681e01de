// SCDOR form ST-575, "South Carolina Sales Tax Rate by Municipality" (publisher-evidence-remaining.md
// §2.2): a multi-page PDF table whose header repeats on every page (`Municipality`, `County`, `Local
// Taxes and Codes`, then the rate heads), one row per municipality per county part (`*` before a
// municipality that lies in more than one county), and an `Unincorporated` row for each of the 46
// counties. Cells wrap, and a line-by-line extraction separates a wrapped row from its rate cells, so
// rows are read by their coordinates: each row is anchored on its `N%` cell in the total-rate band,
// and every other piece of text joins the row whose anchor lies nearest it (within 12 points), in its
// column's band. Text that joins no row and is no header, title or page number fails the file, and so
// do fewer than 46 Unincorporated rows, a (municipality, county) pair twice and a total outside 6–11%.
import { parseRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { pdfTextItems, type PdfTextItem } from '../pdf-text.ts'
import { slashDateIso } from '../printed-dates.ts'

export type St575Row = { municipality: string; county: string; multiCounty: boolean; taxes: string; total: number; page: number }
export type St575 = { fileName: string; revision: string | null; rows: St575Row[] }

/** The column bands in PDF points (TAP-scpdf): name < 138, county 138–207, taxes 207–360, total 360–405, accommodations 405–487, unprepared foods beyond. */
const BANDS = { name: 138, county: 207, taxes: 360, total: 405, accommodations: 487 } as const
const ANCHOR = /^\d+(\.\d+)?%$/
/** How far a wrapped cell's line may lie from its row's rate cell. */
const JOIN_POINTS = 12
export const SC_COUNTIES = 46
const LEAST_TOTAL = 6000
const MOST_TOTAL = 11000
const REVISION = /\(Rev\.\s*(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\)/
const HEADER = /^(Municipality|County|Local Taxes and Codes|Total|Tax|Rate|Total Tax Rate|Accommodations|Unprepared|Foods|Unprepared Foods|Total Tax Rate Unprepared Foods)$/i

type Band = 'name' | 'county' | 'taxes' | 'total' | 'accommodations' | 'food'
const bandOf = (x: number): Band => (x < BANDS.name ? 'name' : x < BANDS.county ? 'county' : x < BANDS.taxes ? 'taxes' : x < BANDS.total ? 'total' : x < BANDS.accommodations ? 'accommodations' : 'food')

export async function parseSt575(bytes: Uint8Array, fileName: string): Promise<St575> {
  const items = await pdfTextItems(bytes, fileName)
  const revisionMatch = REVISION.exec(items.map((item) => item.text).join(' '))
  // The header and title sit above the first row of each page.
  const headerY = new Map<number, number>()
  for (const item of items) if (/^Municipality$/i.test(item.text.trim())) headerY.set(item.page, Math.min(item.y, headerY.get(item.page) ?? Infinity))
  if (headerY.size === 0) throw new Error(`${fileName}: no "Municipality" column head: not the ST-575 layout`)
  const body = items.filter((item) => item.y < (headerY.get(item.page) ?? Infinity) - 4)
  const anchors = body.filter((item) => bandOf(item.x) === 'total' && ANCHOR.test(item.text.trim()))
  const cells = new Map<PdfTextItem, Map<Band, PdfTextItem[]>>(anchors.map((anchor) => [anchor, new Map()]))
  const unread: string[] = []
  for (const item of body) {
    if (cells.has(item)) continue
    let nearest: PdfTextItem | null = null
    for (const anchor of anchors) {
      if (anchor.page !== item.page || Math.abs(anchor.y - item.y) > JOIN_POINTS) continue
      if (!nearest || Math.abs(anchor.y - item.y) < Math.abs(nearest.y - item.y)) nearest = anchor
    }
    if (!nearest) {
      // A page number alone on its line, or a footnote of the header style, joins no row.
      if (!/^\d{1,3}$/.test(item.text.trim()) && !HEADER.test(item.text.trim())) unread.push(`page ${item.page}: ${JSON.stringify(item.text.trim())}`)
      continue
    }
    const band = bandOf(item.x)
    const row = cells.get(nearest)!
    row.set(band, [...(row.get(band) ?? []), item])
  }
  if (unread.length) throw new Error(`${fileName}: ${unread.length} piece(s) of text belong to no row (${unread.slice(0, 3).join('; ')}): the layout changed, so no row can be trusted`)

  const text = (pieces: PdfTextItem[] | undefined) => (pieces ?? []).sort((a, b) => b.y - a.y || a.x - b.x).map((piece) => piece.text.trim()).join(' ').replace(/\s+/g, ' ').trim()
  const rows: St575Row[] = anchors
    .sort((a, b) => a.page - b.page || b.y - a.y)
    .map((anchor) => {
      const row = cells.get(anchor)!
      const printed = text(row.get('name'))
      const county = text(row.get('county'))
      const total = parseRatePercent(anchor.text.trim().replace('%', ''))
      const where = `page ${anchor.page} row "${printed} ${county} ${anchor.text.trim()}"`
      if (!printed || !county) throw new Error(`${fileName}: ${where}: a rate with no municipality or county beside it`)
      if (!total.ok || total.units < LEAST_TOTAL || total.units > MOST_TOTAL) throw new Error(`${fileName}: ${where}: a total of ${anchor.text.trim()} is no South Carolina rate (6% to 11%)`)
      return { municipality: printed.replace(/^\*\s*/, ''), county, multiCounty: printed.startsWith('*'), taxes: text(row.get('taxes')), total: total.units, page: anchor.page }
    })
  const unincorporated = rows.filter((row) => /^unincorporated$/i.test(row.municipality))
  if (unincorporated.length !== SC_COUNTIES) throw new Error(`${fileName}: ${unincorporated.length} Unincorporated rows, not one for each of the ${SC_COUNTIES} counties: rows lost or misread`)
  const seen = new Set<string>()
  for (const row of rows) {
    const key = `${row.municipality.toLowerCase()}|${row.county.toLowerCase()}`
    if (seen.has(key)) throw new Error(`${fileName}: ${row.municipality} in ${row.county} listed twice`)
    seen.add(key)
  }
  return { fileName, revision: revisionMatch ? slashDateIso(revisionMatch[1]!, revisionMatch[2]!, revisionMatch[3]!) : null, rows }
}
