// Alabama: DOR's local rates CSV, linked from its text-file page; its rows carry their own dates.
import { parseAlRateFile } from './rate-file.ts'
import { compileAlRates } from './compile.ts'
import { listingOrNoFile, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { oneFileAdapter, textOf } from '../feed-files.ts'

/** Alabama's local rates file: the current-rows form first, else the form with past rows too (which is canonical is not known). */
const AL_RATE_FILES = ['taxrates_current.csv', 'taxrates.csv']

/** The local rates file the Alabama page links (on a mirror, its al-dor folder holds). */
export async function chooseAlRateFile(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const listing = await listingOrNoFile('al-dor', pageUrl, context)
  const file = AL_RATE_FILES.map((name) => listing.files.find((f) => f.name.toLowerCase() === name)).find(Boolean)
  if (!file) throw new Error(`local rates page ${listing.where} links neither ${AL_RATE_FILES.join(' nor ')} among its ${listing.files.length} links: its layout changed`)
  const today = context.settings.now.toISOString().slice(0, 10)
  return { request: { feed: 'al-dor', fileName: file.name, officialUrl: file.officialUrl }, edition: today, pinned: false, how: `${file.name}: the local rates file linked from ${listing.where}, its rows answered by their own dates` }
}

export const alDorAdapter: FeedAdapter<'al-dor'> = oneFileAdapter({
  kind: 'al-dor',
  choose: (feed, context) => chooseAlRateFile(feed.pageUrl, context),
  compile: (context, fetched, rateOn, edition) => compileAlRates({ file: parseAlRateFile(textOf(fetched), fetched.name), stateRate: rateOn(edition), geography: context.geography, edition }),
  // the edition is the day of the fetch, not the publisher's: no order between editions
  edition: CURRENT_FILE_RULES,
})
