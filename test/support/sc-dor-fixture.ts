// SCDOR's three publications built in their documented layouts (publisher-evidence-remaining.md §2):
// the Sales & Use Tax Index page with a county table whose rate columns are labelled by date
// ("Before 5/1/26", "5/1/26 & after"), ST-500 with its "Effective May 1, 2026 (Rev. 3/9/2026)" line
// and a county total per line, and ST-575 (Rev. 2/5/26) as real PDFs (pdf-lib): its header repeated on
// every page at the documented x positions, one row per municipality per county part (`*` for those
// in several counties), the 46 Unincorporated rows, a row whose municipality cell wraps. Totals are
// the evidence's pins (§2.5: Horry 8%, Myrtle Beach 9%, Greenville and Oconee 6%, Charleston,
// Berkeley and Jasper 9%, Williamsburg 7% then 8% from 2026-05-01, Lexington 7%, Georgetown 7%,
// Sumter 8%); every other county stands at the fixture's 7%, and the tax codes are the fixture's.
import { PDFDocument, StandardFonts } from 'pdf-lib'

/** Totals in % before and from 2026-05-01, by county, as §2.5 pins them; others at SC_DEFAULT_TOTAL. */
export const SC_TOTALS: Record<string, [before: number, after: number]> = {
  Horry: [8, 8], Greenville: [6, 6], Oconee: [6, 6], Charleston: [9, 9], Berkeley: [9, 9], Jasper: [9, 9],
  Williamsburg: [7, 8], Lexington: [7, 7], Georgetown: [7, 7], Sumter: [8, 8],
}
export const SC_DEFAULT_TOTAL = 7
const totalOf = (county: string): [number, number] => SC_TOTALS[county] ?? [SC_DEFAULT_TOTAL, SC_DEFAULT_TOTAL]

/** Municipal rows of ST-575 the evidence names (§2.4, §2.5), each county part its own row; Myrtle Beach 1% above Horry. */
export const SC_MUNICIPAL_ROWS: { municipality: string; county: string; multi?: boolean; above?: number }[] = [
  { municipality: 'Myrtle Beach', county: 'Horry', above: 1 },
  { municipality: 'North Myrtle Beach', county: 'Horry' },
  { municipality: 'Conway', county: 'Horry' },
  { municipality: 'Surfside Beach', county: 'Horry' },
  { municipality: 'Summerville', county: 'Berkeley', multi: true },
  { municipality: 'Summerville', county: 'Charleston', multi: true },
  { municipality: 'Summerville', county: 'Dorchester', multi: true },
  { municipality: 'North Charleston', county: 'Berkeley', multi: true },
  { municipality: 'North Charleston', county: 'Charleston', multi: true },
  { municipality: 'North Charleston', county: 'Dorchester', multi: true },
  { municipality: 'Charleston', county: 'Berkeley', multi: true },
  { municipality: 'Charleston', county: 'Charleston', multi: true },
  { municipality: 'Columbia', county: 'Lexington', multi: true },
  { municipality: 'Columbia', county: 'Richland', multi: true },
  { municipality: 'Greenville', county: 'Greenville' },
  { municipality: 'Greer', county: 'Greenville', multi: true },
  { municipality: 'Greer', county: 'Spartanburg', multi: true },
  { municipality: 'Kingstree', county: 'Williamsburg' },
]

const percent = (value: number) => `${value}%`

/** The Sales & Use Tax Index page: navigation, then the county table with its dated columns and the Horry–Myrtle Beach line. */
export function scIndexPage(counties: string[], options: { heads?: [string, string] } = {}): string {
  const [before, after] = options.heads ?? ['Before 5/1/26', '5/1/26 &amp; after']
  const rows = counties.map((county) => `<tr><td>${county}</td><td>${percent(totalOf(county)[0])}</td><td>${percent(totalOf(county)[1])}</td></tr>`)
  rows.push('<tr><td>Horry &ndash; Myrtle Beach</td><td>9%</td><td>9%</td></tr>')
  return `<!DOCTYPE html><html lang="en"><head><title>Sales &amp; Use Tax Index | SCDOR</title></head><body>
<nav><a href="/">Home</a> <a href="/sales-use-tax-index/local-sales-taxes">Local Sales Taxes</a></nav>
<main><h1>Sales &amp; Use Tax Index</h1><table class="rates">
<thead><tr><th>County</th><th>${before}</th><th>${after}</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></main></body></html>
`
}

type Placed = { x: number; y: number; text: string; size?: number }

async function pdfOf(pages: Placed[][]): Promise<Buffer> {
  const document = await PDFDocument.create()
  const font = await document.embedFont(StandardFonts.Helvetica)
  for (const pieces of pages) {
    const page = document.addPage([612, 792])
    for (const { x, y, text, size } of pieces) page.drawText(text, { x, y, size: size ?? 8, font })
  }
  return Buffer.from(await document.save())
}

/** ST-500: the title, the effective date and revision, then `<County>  <designations>  <total>` per county. */
export async function st500Pdf(counties: string[], options: { effective?: string | null; totals?: Record<string, number> } = {}): Promise<Buffer> {
  const pieces: Placed[] = [
    { x: 36, y: 750, text: 'ST-500', size: 9 },
    { x: 36, y: 736, text: 'South Carolina Local Tax Designation by County', size: 12 },
  ]
  if (options.effective !== null) pieces.push({ x: 36, y: 720, text: `Effective ${options.effective ?? 'May 1, 2026'}   (Rev. 3/9/2026)`, size: 9 })
  pieces.push({ x: 36, y: 700, text: 'County' }, { x: 180, y: 700, text: 'Local Taxes' }, { x: 450, y: 700, text: 'Total' })
  counties.forEach((county, i) => {
    const y = 686 - i * 13
    const total = options.totals?.[county] ?? totalOf(county)[1]
    pieces.push({ x: 36, y, text: county }, { x: 180, y, text: total > 6 ? 'LO (1001)' : 'none' }, { x: 450, y, text: percent(total) })
  })
  return pdfOf([pieces])
}

/** One ST-575 row as printed: `*` for a municipality in several counties; a name may wrap onto a second line. */
export type St575FixtureRow = { municipality: string; county: string; multi?: boolean; total: number; wrap?: boolean }

export function st575Rows(counties: string[]): St575FixtureRow[] {
  const rows: St575FixtureRow[] = counties.map((county) => ({ municipality: 'Unincorporated', county, total: totalOf(county)[0] }))
  for (const row of SC_MUNICIPAL_ROWS) rows.push({ municipality: row.municipality, county: row.county, multi: row.multi, total: totalOf(row.county)[0] + (row.above ?? 0), wrap: row.municipality === 'North Myrtle Beach' })
  return rows.sort((a, b) => a.municipality.localeCompare(b.municipality) || a.county.localeCompare(b.county))
}

const ROWS_PER_PAGE = 30
const X = { name: 36, county: 140, taxes: 210, total: 365, accommodations: 410, food: 492 }

/** ST-575 (Rev. 2/5/26): its header on every page, a page number at the foot, rows anchored on their total. */
export async function st575Pdf(rows: St575FixtureRow[], options: { stray?: string } = {}): Promise<Buffer> {
  const pages: Placed[][] = []
  for (let start = 0; start < rows.length; start += ROWS_PER_PAGE) {
    const pieces: Placed[] = [
      { x: 36, y: 756, text: 'SOUTH CAROLINA SALES TAX RATE BY MUNICIPALITY (Rev. 2/5/26)', size: 10 },
      { x: X.name, y: 730, text: 'Municipality' }, { x: X.county, y: 730, text: 'County' }, { x: X.taxes, y: 730, text: 'Local Taxes and Codes' },
      { x: X.total, y: 740, text: 'Total' }, { x: X.total, y: 730, text: 'Tax Rate' },
      { x: X.accommodations, y: 730, text: 'Accommodations' }, { x: X.food, y: 740, text: 'Total Tax Rate' }, { x: X.food, y: 730, text: 'Unprepared Foods' },
    ]
    rows.slice(start, start + ROWS_PER_PAGE).forEach((row, i) => {
      const y = 710 - i * 22
      const name = `${row.multi ? '* ' : ''}${row.municipality}`
      if (row.wrap) {
        const words = name.split(' ')
        pieces.push({ x: X.name, y: y + 5, text: words.slice(0, -1).join(' ') }, { x: X.name, y: y - 5, text: words.at(-1)! })
      } else pieces.push({ x: X.name, y, text: name })
      pieces.push(
        { x: X.county, y, text: row.county },
        { x: X.taxes, y, text: row.total > 6 ? 'LO (1001)' : '' },
        { x: X.total, y, text: percent(row.total) },
        { x: X.accommodations, y, text: percent(row.total + 2) },
        { x: X.food, y, text: percent(row.total - 1) },
      )
    })
    pieces.push({ x: 300, y: 30, text: String(pages.length + 1) })
    if (options.stray && start === 0) pieces.push({ x: X.county, y: 40, text: options.stray })
    pages.push(pieces.filter((piece) => piece.text !== ''))
  }
  return pdfOf(pages)
}
