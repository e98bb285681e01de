// New Mexico: TRD's gross receipts tax rates and boundaries CSV, the half-year's RGIS dataset.
import path from 'node:path'
import { pageLinks } from '../../fetch/html-links.ts'
import { parseNmGrtFile } from './rate-file.ts'
import { csvDownloadOf, grtDatasetLinks, rgisServicesUrl } from './links.ts'
import { compileNmGrt } from './compile.ts'
import { orNoFileOnMirror, readPage, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { isOlderDate, never, type FeedAdapter } from '../feed-adapter.ts'
import { fileText, oneFileAdapter } from '../feed-files.ts'

const NM_FEED = 'nm-trd-grt'
/** The GIS data-download page and each dataset's services.json, kept (and, on a mirror, served) under these names. */
const NM_DATA_PAGE = 'data-download.html'
const nmServicesName = (uuid: string) => `services-${uuid}.json`

/**
 * New Mexico's GRT rates and boundaries CSV: the data-download page links each half-year's RGIS
 * dataset by its title; the dataset of the newest half-year begun is chosen (a later one is held
 * until it begins), and its services.json names the CSV download. On a mirror, the pages are files
 * of the nm-trd-grt folder (`data-download.html`, `services-<uuid>.json`).
 */
export async function chooseNmGrtFile(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const today = context.settings.now.toISOString().slice(0, 10)
  const page = await orNoFileOnMirror(NM_FEED, context.settings, () => readPage({ feed: NM_FEED, fileName: NM_DATA_PAGE, officialUrl: pageUrl }, context.settings))
  const datasets = grtDatasetLinks(pageLinks(page), pageUrl).sort((a, b) => b.from.localeCompare(a.from))
  const held = datasets.filter((d) => d.from > today).map((d) => `"${d.text}"`)
  const [newest] = datasets.filter((d) => d.from <= today)
  if (!newest) {
    if (held.length) throw new Error(`data-download page ${pageUrl} links only GRT datasets of half-years not yet begun (${held.join(', ')}); held until then`)
    throw new Error(`data-download page ${pageUrl} links no dataset titled "Gross Receipts Tax Rates and Boundaries: <period>": its layout changed`)
  }
  const servicesUrl = rgisServicesUrl(newest.uuid)
  const csvUrl = csvDownloadOf(await readPage({ feed: NM_FEED, fileName: nmServicesName(newest.uuid), officialUrl: servicesUrl }, context.settings), servicesUrl)
  const fileName = decodeURIComponent(path.posix.basename(new URL(csvUrl).pathname))
  const how = `${fileName}: the csv download of "${newest.text}" (RGIS dataset ${newest.uuid}), the newest of ${datasets.length} GRT dataset(s) linked from ${pageUrl}${held.length ? `; held until their half-year: ${held.join(', ')}` : ''}`
  return { request: { feed: NM_FEED, fileName, officialUrl: csvUrl }, edition: newest.from, pinned: false, how }
}

export const nmTrdGrtAdapter: FeedAdapter<'nm-trd-grt'> = oneFileAdapter({
  kind: 'nm-trd-grt',
  choose: (feed, context) => chooseNmGrtFile(feed.pageUrl, context),
  compile: (context, fetched, rateOn, edition) => {
    // the csv download is a ZIP holding the CSV and its XML metadata
    const csv = fileText(fetched)
    const file = parseNmGrtFile(csv.text, csv.member ? `${fetched.name}:${csv.member}` : csv.name)
    return compileNmGrt({ file, stateRate: rateOn(edition), geography: context.geography, edition })
  },
  edition: { pinnable: never, isOlder: isOlderDate, role: () => null },
})
