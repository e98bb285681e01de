// Arizona: DOR's TPT rate table `TPT_RATETABLE_ALL_MMDDYYYY.csv`, linked from its tax rate table page.
import { compileAzTpt } from './compile.ts'
import { parseAzTptFile } from './rate-file.ts'
import { listingOrNoFile, pinnedChoice, pinsOf, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { isOlderDate, type FeedAdapter } from '../feed-adapter.ts'
import { oneFileAdapter, textOf } from '../feed-files.ts'

/** Arizona's TPT rate table: `TPT_RATETABLE_ALL_05012026.csv` (MMDDYYYY). */
const AZ_RATE_TABLE = /^TPT_RATETABLE_ALL_(\d{2})(\d{2})(\d{4})\.csv$/i
const azEditionDate = (name: string): string | null => {
  const match = AZ_RATE_TABLE.exec(name)
  return match ? `${match[3]}-${match[1]}-${match[2]}` : null
}

/**
 * The newest TPT rate table in effect the page links: files appear before their date, so the
 * latest date that is not after today; later ones are held until their date.
 */
export async function chooseAzRateTable(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const pinned = pinsOf('AZ', context.settings).find((name) => AZ_RATE_TABLE.test(name))
  if (pinned) return pinnedChoice('az-dor-tpt', pinned, pageUrl, azEditionDate(pinned)!)
  const listing = await listingOrNoFile('az-dor-tpt', pageUrl, context)
  const today = context.settings.now.toISOString().slice(0, 10)
  const tables = listing.files.flatMap((file) => {
    const edition = azEditionDate(file.name)
    return edition ? [{ file, edition }] : []
  }).sort((a, b) => b.edition.localeCompare(a.edition))
  const held = tables.filter((t) => t.edition > today).map((t) => t.file.name)
  const [newest] = tables.filter((t) => t.edition <= today)
  if (!newest) {
    if (held.length) throw new Error(`rate table page ${listing.where} links only tables dated after today (${held.join(', ')}); held until then`)
    throw new Error(`rate table page ${listing.where} links no TPT_RATETABLE_ALL_MMDDYYYY.csv among its ${listing.files.length} links: its layout changed`)
  }
  const how = `${newest.file.name}: the newest of ${tables.length} rate table(s) in effect linked from ${listing.where}${held.length ? `; held until their date: ${held.join(', ')}` : ''}`
  return { request: { feed: 'az-dor-tpt', fileName: newest.file.name, officialUrl: newest.file.officialUrl }, edition: newest.edition, pinned: false, how }
}

export const azDorTptAdapter: FeedAdapter<'az-dor-tpt'> = oneFileAdapter({
  kind: 'az-dor-tpt',
  choose: (feed, context) => chooseAzRateTable(feed.pageUrl, context),
  compile: (context, fetched, rateOn, edition) => compileAzTpt({ file: parseAzTptFile(textOf(fetched), fetched.name), stateRate: rateOn(edition), geography: context.geography, edition }),
  edition: {
    pinnable: (name) => AZ_RATE_TABLE.test(name),
    isOlder: isOlderDate,
    role: (name) => (AZ_RATE_TABLE.test(name) ? 'az rate table' : null),
  },
})
