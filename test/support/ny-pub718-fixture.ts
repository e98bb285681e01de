// NY DTF Publication 718 built as a real PDF (pdf-lib) in its documented layout
// (publisher-evidence-remaining.md §1.2): one page, the title "Publication 718 (2/25)" and an
// "Effective March 1, 2025" line, the table in three newsletter columns headed `County or other
// locality | Tax rate % | Reporting code`, then the MCTD footnote. The rows are the 2/25 edition as
// transcribed in §1.6 (U-63204094215), with the cross-reference rows of §1.2 where they fall
// alphabetically. Text is set in Helvetica with an encoding whose extra codes name the en dash and
// the fraction glyphs, so pdf.js decodes them to ½ ¼ ¾ ⅛ ⅜ ⅝ ⅞ and U+2013 as it does the real file;
// `glyphs: 'misdecoded'` names them as the 2022 text copy decoded them (`?` and `每`, §1.2).
import { PDFDocument, PDFName } from 'pdf-lib'

/** A row as printed: `*` for MCTD, an indent for a city row, a rate with its fraction glyph, a code; a cross-reference has neither. */
export type Pub718FixtureRow = { name: string; rate?: string; code?: string; city?: boolean }

const r = (name: string, rate: string, code: string): Pub718FixtureRow => ({ name, rate, code })
const c = (name: string, rate: string, code: string): Pub718FixtureRow => ({ name, rate, code, city: true })
const see = (name: string): Pub718FixtureRow => ({ name })

/** Publication 718 (2/25), effective 2025-03-01: 77 rate rows and 5 cross-references. */
export const PUB718_2_25: readonly Pub718FixtureRow[] = [
  r('New York State only', '4', '0021'), r('Albany', '8', '0181'), r('Allegany', '8½', '0221'), see('*Bronx – see New York City'),
  r('Broome', '8', '0321'), r('Cattaraugus – except', '8', '0481'), c('Olean (city)', '8', '0441'), c('Salamanca (city)', '8', '0431'),
  r('Cayuga – except', '8', '0511'), c('Auburn (city)', '8', '0561'), r('Chautauqua', '8', '0651'), r('Chemung', '8', '0711'),
  r('Chenango – except', '8', '0861'), c('Norwich (city)', '8', '0831'), r('Clinton', '8', '0921'), r('Columbia', '8', '1021'),
  r('Cortland', '8', '1131'), r('Delaware', '8', '1221'), r('*Dutchess', '8⅛', '1311'), r('Erie', '8¾', '1451'), r('Essex', '8', '1521'),
  r('Franklin', '8', '1621'), r('Fulton – except', '8', '1791'), c('Gloversville (city)', '8', '1741'), c('Johnstown (city)', '8', '1751'),
  r('Genesee', '8', '1811'), r('Greene', '8', '1911'), r('Hamilton', '8', '2011'), r('Herkimer', '8¼', '2121'), r('Jefferson', '8', '2221'),
  see('*Kings (Brooklyn) – see New York City'), r('Lewis', '8', '2321'), r('Livingston', '8', '2411'), r('Madison – except', '8', '2511'),
  c('Oneida (city)', '8', '2541'), r('Monroe', '8', '2611'), r('Montgomery', '8', '2781'), r('*Nassau', '8⅝', '2811'),
  see('*New York (Manhattan) –  see New York City'), r('*New York City', '8⅞', '8081'), r('Niagara', '8', '2911'),
  r('Oneida – except', '8¾', '3010'), c('Rome (city)', '8¾', '3015'), c('Utica (city)', '8¾', '3018'), r('Onondaga', '8', '3121'),
  r('Ontario', '7½', '3211'), r('*Orange', '8⅛', '3321'), r('Orleans', '8', '3481'), r('Oswego – except', '8', '3501'),
  c('Oswego (city)', '8', '3561'), r('Otsego', '8', '3621'), r('*Putnam', '8⅜', '3731'), see('*Queens – see New York City'),
  r('Rensselaer', '8', '3881'), see('*Richmond (Staten Island)  – see New York City'), r('*Rockland', '8⅜', '3921'),
  r('St. Lawrence – except', '8', '4091'), c('Ogdensburg (city)', '8', '4012'), r('Saratoga – except', '7', '4111'),
  c('Saratoga Springs (city)', '7', '4131'), r('Schenectady', '8', '4241'), r('Schoharie', '8', '4321'), r('Schuyler', '8', '4411'),
  r('Seneca', '8', '4511'), r('Steuben', '8', '4691'), r('*Suffolk', '8¾', '4711'), r('Sullivan', '8', '4821'), r('Tioga', '8', '4921'),
  r('Tompkins – except', '8', '5081'), c('Ithaca (city)', '8', '5021'), r('Ulster', '8', '5111'), r('Warren – except', '7', '5281'),
  c('Glens Falls (city)', '7', '5211'), r('Washington', '7', '5311'), r('Wayne', '8', '5421'), r('*Westchester – except', '8⅜', '5581'),
  c('*Mount Vernon (city)', '8⅜', '5521'), c('*New Rochelle (city)', '8⅜', '6861'), c('*White Plains (city)', '8⅜', '6513'),
  c('*Yonkers (city)', '8⅞', '6511'), r('Wyoming', '8', '5621'), r('Yates', '8', '5721'),
]

export type Pub718FixtureOptions = {
  rows?: readonly Pub718FixtureRow[]
  /** how the en dash and fraction glyphs decode: as published, or as the mis-decoded 2022 copy */
  glyphs?: 'unicode' | 'misdecoded'
  /** the order of the text in the content stream: column by column, or physical line by physical line across the columns (what pdf.js interleaves) */
  contentOrder?: 'columns' | 'physical-lines'
  /** draw the column heads (false: a relayout without them) */
  heads?: boolean
  effective?: string
}

const EXTRA_GLYPHS = ['–', '½', '¼', '¾', '⅛', '⅜', '⅝', '⅞'] as const
const GLYPH_NAMES = { unicode: ['endash', 'onehalf', 'onequarter', 'threequarters', 'oneeighth', 'threeeighths', 'fiveeighths', 'seveneighths'], misdecoded: ['uni6BCF', 'question', 'question', 'question', 'question', 'question', 'question', 'question'] }
const FIRST_EXTRA_CODE = 128

/** A string in the font's single-byte encoding, as a PDF hex string. */
function encoded(text: string): string {
  let hex = ''
  for (const char of text) {
    const extra = EXTRA_GLYPHS.indexOf(char as (typeof EXTRA_GLYPHS)[number])
    const code = extra >= 0 ? FIRST_EXTRA_CODE + extra : char.charCodeAt(0)
    if (code > 255) throw new Error(`fixture text ${JSON.stringify(text)}: ${char} has no code in the font's encoding`)
    hex += code.toString(16).padStart(2, '0')
  }
  return `<${hex}>`
}

type Placed = { x: number; y: number; text: string; size: number }

const COLUMN_X = [36, 228, 420]
const TOP = 668
const LINE = 12

export async function pub718Pdf(options: Pub718FixtureOptions = {}): Promise<Buffer> {
  const rows = options.rows ?? PUB718_2_25
  const pieces: Placed[][] = [[
    { x: 36, y: 750, text: 'Publication 718 (2/25)', size: 9 },
    { x: 36, y: 732, text: 'New York State Sales and Use Tax Rates by Jurisdiction', size: 14 },
    { x: 36, y: 714, text: `Effective ${options.effective ?? 'March 1, 2025'}`, size: 11 },
  ]]
  if (options.heads !== false) {
    for (const x of COLUMN_X) pieces.push([{ x, y: TOP + 14, text: 'County or other locality', size: 8 }, { x: x + 110, y: TOP + 14, text: 'Tax rate %', size: 8 }, { x: x + 148, y: TOP + 14, text: 'Reporting code', size: 8 }])
  }
  const perColumn = Math.ceil(rows.length / 3)
  const lines: Placed[][] = []
  rows.forEach((row, i) => {
    const column = Math.floor(i / perColumn)
    const x = COLUMN_X[column]!
    const y = TOP - (i % perColumn) * LINE
    const line: Placed[] = [{ x: x + (row.city ? 8 : 0), y, text: row.name, size: 9 }]
    if (row.rate) line.push({ x: x + 115, y, text: row.rate, size: 9 }, { x: x + 152, y, text: row.code!, size: 9 })
    lines[i % perColumn] ??= []
    if (options.contentOrder === 'physical-lines') lines[i % perColumn]!.push(...line)
    else pieces.push(line)
  })
  if (options.contentOrder === 'physical-lines') pieces.push(...lines)
  pieces.push([{ x: 36, y: 40, text: '*Rates in these jurisdictions include 3/8% imposed for the benefit of the Metropolitan Commuter Transportation District.', size: 7 }])

  const document = await PDFDocument.create()
  const page = document.addPage([612, 792])
  const context = document.context
  const names = GLYPH_NAMES[options.glyphs ?? 'unicode'].map((name) => PDFName.of(name))
  const encoding = context.obj({ Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: context.obj([FIRST_EXTRA_CODE, ...names]) })
  page.node.setFontDictionary(PDFName.of('F1'), context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: encoding })))
  const operators = pieces.flat().map(({ x, y, text, size }) => `BT /F1 ${size} Tf ${x} ${y} Td ${encoded(text)} Tj ET`).join('\n')
  page.node.set(PDFName.of('Contents'), context.register(context.flateStream(operators)))
  return Buffer.from(await document.save())
}

/** The DTF page "Local sales and use tax rates" linking the publication relatively, as the real page does (§1.1). */
export const nyLocalRatesPage = (pdfHref = '/pdf/publications/sales/pub718.pdf') => `<!DOCTYPE html>
<html lang="en"><head><title>Sales and use tax rates by jurisdiction - current</title></head>
<body><main><h1>Local sales and use tax rates</h1>
<p>The rates below are effective March 1, 2025. See <a href="${pdfHref}">Publication 718, <em>New York State Sales and Use Tax Rates by Jurisdiction</em> (PDF)</a>.</p>
<p><a href="/pubs_and_bulls/publications/sales/local_rates_history.htm">Previous rates</a> · <a href="/pdf/publications/sales/pub718a.pdf">Publication 718-A</a></p>
</main></body></html>
`
