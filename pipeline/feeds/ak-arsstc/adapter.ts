// Alaska: the ARSSTC rate sheet `ARSSTC-Sales-Tax-Rate-Sheet-M-D-YY.xlsx` (or ZIP-wrapped), linked from its tax rates page.
import { extractMember } from '../../fetch/archive.ts'
import { parseAkRateSheet } from './rate-sheet.ts'
import { compileAkRates } from './compile.ts'
import { listingOrNoFile, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { isOlderDate, never, type FeedAdapter } from '../feed-adapter.ts'
import { assertInEffect, oneFileAdapter } from '../feed-files.ts'
import { slashDateIso } from '../printed-dates.ts'

/** ARSSTC's rate sheet: `ARSSTC-Sales-Tax-Rate-Sheet-9-1-26.xlsx` (M-D-YY, or a 4-digit year), or the same wrapped in a ZIP. */
const AK_RATE_SHEET = /^ARSSTC-Sales-Tax-Rate-Sheet-(\d{1,2})-(\d{1,2})-(\d{4}|\d{2})\.(xlsx|zip)$/i
const akEditionDate = (name: string): string | null => {
  const match = AK_RATE_SHEET.exec(name)
  return match ? slashDateIso(match[1]!, match[2]!, match[3]!) : null
}

/**
 * The newest ARSSTC rate sheet in effect the tax rates page links (the workbook rather than its ZIP
 * when both are linked for one date); a sheet dated after today is held until its date.
 */
export async function chooseAkRateSheet(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const listing = await listingOrNoFile('ak-arsstc', pageUrl, context)
  const today = context.settings.now.toISOString().slice(0, 10)
  const sheets = listing.files.flatMap((file) => {
    const edition = akEditionDate(file.name)
    return edition ? [{ file, edition }] : []
  }).sort((a, b) => b.edition.localeCompare(a.edition) || Number(/\.zip$/i.test(a.file.name)) - Number(/\.zip$/i.test(b.file.name)))
  const held = sheets.filter((s) => s.edition > today).map((s) => s.file.name)
  const [newest] = sheets.filter((s) => s.edition <= today)
  if (!newest) {
    if (held.length) throw new Error(`tax rates page ${listing.where} links only rate sheets dated after today (${held.join(', ')}); held until then`)
    throw new Error(`tax rates page ${listing.where} links no ARSSTC-Sales-Tax-Rate-Sheet-M-D-YY.xlsx among its ${listing.files.length} links: its layout changed`)
  }
  const how = `${newest.file.name}: the newest of ${sheets.length} rate sheet(s) linked from ${listing.where}${held.length ? `; held until their date: ${held.join(', ')}` : ''}`
  return { request: { feed: 'ak-arsstc', fileName: newest.file.name, officialUrl: newest.file.officialUrl }, edition: newest.edition, pinned: false, how }
}

export const akArsstcAdapter: FeedAdapter<'ak-arsstc'> = oneFileAdapter({
  kind: 'ak-arsstc',
  choose: (feed, context) => chooseAkRateSheet(feed.pageUrl, context),
  compile: async (context, fetched, rateOn) => {
    // the sheet may be linked wrapped in a ZIP
    const bytes = /\.zip$/i.test(fetched.name) ? Buffer.from(extractMember(fetched.bytes, fetched.name, /\.xlsx$/i).bytes) : fetched.bytes
    const sheet = await parseAkRateSheet(bytes, fetched.name)
    assertInEffect(sheet.fileName, sheet.asOf, context.settings.now)
    return compileAkRates({ sheet, stateRate: rateOn(sheet.asOf), geography: context.geography, edition: sheet.asOf })
  },
  edition: { pinnable: never, isOlder: isOlderDate, role: () => null },
})
