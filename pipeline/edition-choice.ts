// Which edition of a state's source to load: the newest one its publisher lists, unless the
// operator pinned one (TAXATLAS_PIN). Editions compare per feed, so an edition older than the one
// in service can be refused.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { StateDescriptor } from '../sources/descriptor.ts'
import type { FeedKind } from '../snapshot-contract/feed-traits.ts'
import { NoFileForState } from './feeds/no-file-for-state.ts'
import { cdtfaEditionDate } from './feeds/cdtfa-workbook.ts'
import { quarterStart } from './feeds/tx-rate-file.ts'
import { parseSstFileName, pickLatest, sstEditionKey, type SstFileKind } from './feeds/sst-file-names.ts'
import { chartLinks, pageLinks, yearPages } from './feeds/mo-rate-links.ts'
import { csvDownloadOf, grtDatasetLinks, rgisServicesUrl } from './feeds/nm-grt-links.ts'
import { coWorkbookLinks } from './feeds/co-rate-links.ts'
import { download, FetchError, locate, type SourceRequest } from './fetch-source.ts'
import type { PipelineSettings } from './settings.ts'
import type { Listings } from './source-listing.ts'

export type EditionChoice = {
  request: SourceRequest
  /** the file is the page's answer to this button's postback (request.officialUrl is the page), not a download of its own */
  postback?: string
  /** the edition the file name carries: `2026Q2FEB19`, `2026-01-01` */
  edition: string
  pinned: boolean
  /** how it was chosen, for the manifest's notes */
  how: string
}

/** The edition of a file the publisher keeps at one address with no edition in its name. */
export const CURRENT_EDITION = 'current'

type ChoiceContext = { settings: PipelineSettings; listings: Listings }

const CDTFA_WORKBOOK = /^SalesTaxRates\d{1,2}-\d{1,2}-\d{2}\.xlsx$/i
/** The Texas Comptroller's rate file: `taxrates.txt` (the current quarter) or `taxrates{YY}{Q}.txt` (`taxrates263.txt` = 2026 Q3). */
const TX_RATE_FILE = /^taxrates(?:(\d{2})([1-4]))?\.txt$/i
/** `2026Q3` of a dated Texas file name; null for the undated current file. */
const txQuarterOf = (name: string): string | null => {
  const match = TX_RATE_FILE.exec(name)
  return match?.[1] ? `20${match[1]}Q${match[2]}` : null
}

/** The state's newest SST rate or boundary file on the index page, or its pinned one. */
export async function chooseSstFile(state: string, kind: SstFileKind, indexUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const pinned = pinsOf(state, context.settings).find((name) => parseSstFileName(name)?.kind === kind)
  if (pinned) return pinnedChoice('sst', pinned, indexUrl, parseSstFileName(pinned)!.edition)
  const listing = await context.listings.get('sst', indexUrl)
  const names = listing.files.map((file) => file.name)
  const newest = pickLatest(names, state, kind)
  if (!newest) {
    const sst = names.filter((name) => parseSstFileName(name) !== null)
    if (sst.length === 0) {
      throw new Error(`index page ${listing.where} lists no SST file names among its ${names.length} links: its layout changed`)
    }
    // The state posts no file there: not a failure of the feed, and the state's next feed serves.
    throw new NoFileForState(`index page ${listing.where} lists no ${kind} file for ${state} (${sst.length} SST files of other states)`)
  }
  const officialUrl = listing.files.find((file) => file.name === newest.name)!.officialUrl
  const how = `${newest.name}: the newest of ${names.filter((name) => parseSstFileName(name)?.state === state && parseSstFileName(name)?.kind === kind).length} ${state} ${kind} file(s) listed on ${listing.where}${listing.cache === 'not-modified' ? ' (page not modified)' : ''}`
  return { request: { feed: 'sst', fileName: newest.name, officialUrl }, edition: newest.edition, pinned: false, how }
}

/** The newest SalesTaxRates<M>-<D>-<YY>.xlsx the CDTFA rates page links, or the pinned one. */
export async function chooseCdtfaWorkbook(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const pinned = pinsOf('CA', context.settings).find((name) => CDTFA_WORKBOOK.test(name))
  if (pinned) return pinnedChoice('cdtfa', pinned, pageUrl, cdtfaEditionDate(pinned))
  const listing = await context.listings.get('cdtfa', pageUrl)
  const workbooks = listing.files
    .filter((file) => CDTFA_WORKBOOK.test(file.name))
    .map((file) => ({ file, edition: cdtfaEditionDate(file.name) }))
    .sort((a, b) => b.edition.localeCompare(a.edition))
  const [newest, next] = workbooks
  if (!newest) {
    throw new Error(`rates page ${listing.where} links no SalesTaxRates<M>-<D>-<YY>.xlsx workbook among its ${listing.files.length} links: its layout changed`)
  }
  if (next && next.edition === newest.edition) {
    throw new Error(`rates page ${listing.where} links two workbooks of edition ${newest.edition}: ${newest.file.name} and ${next.file.name}`)
  }
  const how = `${newest.file.name}: the newest of ${workbooks.length} workbook(s) linked from ${listing.where}${listing.cache === 'not-modified' ? ' (page not modified)' : ''}`
  return { request: { feed: 'cdtfa', fileName: newest.file.name, officialUrl: newest.file.officialUrl }, edition: newest.edition, pinned: false, how }
}

/**
 * The Texas rate file: the current `taxrates.txt` when the EDI page links it (its control record
 * says its quarter, checked after reading), else the newest `taxrates{YY}{Q}.txt` whose quarter has
 * begun (a later one is held until its quarter), else the current file at its fixed address.
 */
export async function chooseTxRateFile(feed: { pageUrl: string; fileUrl: string }, context: ChoiceContext): Promise<EditionChoice> {
  const pinned = pinsOf('TX', context.settings).find((name) => TX_RATE_FILE.test(name))
  if (pinned) return pinnedChoice('tx-comptroller', pinned, feed.fileUrl, txQuarterOf(pinned) ?? 'current')
  const listing = await listingOrNoFile('tx-comptroller', feed.pageUrl, context)
  const listed = listing.files.filter((file) => TX_RATE_FILE.test(file.name))
  const page = `${listing.where}${listing.cache === 'not-modified' ? ' (page not modified)' : ''}`
  const current = listed.find((file) => txQuarterOf(file.name) === null)
  if (current) {
    return { request: { feed: 'tx-comptroller', fileName: current.name, officialUrl: current.officialUrl }, edition: CURRENT_EDITION, pinned: false, how: `${current.name}: the current rate file linked from ${page}` }
  }
  const today = context.settings.now.toISOString().slice(0, 10)
  const dated = listed.map((file) => ({ file, edition: txQuarterOf(file.name)! })).sort((a, b) => b.edition.localeCompare(a.edition))
  const inEffect = dated.filter((d) => quarterStart(d.edition) <= today)
  const held = dated.filter((d) => quarterStart(d.edition) > today).map((d) => `${d.file.name} (from ${quarterStart(d.edition)})`)
  const heldNote = held.length ? `; held until their quarter: ${held.join(', ')}` : ''
  const [newest] = inEffect
  if (newest) {
    return { request: { feed: 'tx-comptroller', fileName: newest.file.name, officialUrl: newest.file.officialUrl }, edition: newest.edition, pinned: false, how: `${newest.file.name}: the newest of ${dated.length} dated rate file(s) in effect linked from ${page}${heldNote}` }
  }
  if (held.length) throw new Error(`EDI page ${listing.where} links only rate files of quarters not yet begun: ${held.join(', ')}; held until then`)
  const choice = currentFileChoice('tx-comptroller', feed.fileUrl)
  return { ...choice, how: `${choice.how} (the EDI page ${listing.where} links no taxrates file among its ${listing.files.length} links)` }
}

/** A DR 1002 workbook as an operator pins it: the file name the rates page links. */
const CO_WORKBOOK = /\.xlsx?$/i

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

const MO_FEED = 'mo-dor'
/** The year page of the rate-tables landing page, kept (and, on a mirror, served) under this name. */
const moYearPageName = (year: number) => `rate-tables-${year}.html`
const MO_LANDING_PAGE = 'rate-tables.html'

/**
 * Missouri's rate chart: the landing page links a page per year; those of this year and the last
 * link their charts by period (`10/2026 - 12/2026 - XLS`). The chart of the newest period begun is
 * chosen; one whose period begins after today is held until then. On a mirror, the pages are files
 * of the mo-dor folder (`rate-tables.html`, `rate-tables-2026.html`).
 */
export async function chooseMoRateChart(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const today = context.settings.now.toISOString().slice(0, 10)
  const landing = await orNoFileOnMirror(MO_FEED, context.settings, () => readPage({ feed: MO_FEED, fileName: MO_LANDING_PAGE, officialUrl: pageUrl }, context.settings))
  const years = yearPages(pageLinks(landing), pageUrl).filter((y) => y.year >= Number(today.slice(0, 4)) - 1)
  if (years.length === 0) throw new Error(`rate-tables page ${pageUrl} links no page of this year or the last (…/rate-tables/YYYY/): its layout changed`)
  const charts = []
  for (const { year, url } of years) charts.push(...chartLinks(pageLinks(await readPage({ feed: MO_FEED, fileName: moYearPageName(year), officialUrl: url }, context.settings)), url))
  charts.sort((a, b) => b.from.localeCompare(a.from))
  const held = charts.filter((c) => c.from > today).map((c) => `"${c.text}"`)
  const [newest] = charts.filter((c) => c.from <= today)
  if (!newest) {
    if (held.length) throw new Error(`rate-tables pages of ${years.map((y) => y.year).join(', ')} link only charts of periods not yet begun (${held.join(', ')}); held until then`)
    throw new Error(`rate-tables pages of ${years.map((y) => y.year).join(', ')} link no chart by the text "MM/YYYY - MM/YYYY - XLS": their layout changed`)
  }
  const fileName = decodeURIComponent(path.posix.basename(new URL(newest.href).pathname))
  const how = `${fileName}: "${newest.text}", the newest of ${charts.length} rate chart(s) linked from the rate-tables pages of ${years.map((y) => y.year).join(', ')}${held.length ? `; held until their period: ${held.join(', ')}` : ''}`
  return { request: { feed: MO_FEED, fileName, officialUrl: newest.href }, edition: newest.from, pinned: false, how }
}

/** A publisher's page read as text: at its URL, or on a mirror as the file `request.fileName` of the feed's folder. */
async function readPage(request: SourceRequest, settings: PipelineSettings): Promise<string> {
  const at = locate(request, settings.mirror)
  const bytes = at.kind === 'file'
    ? await readFile(at.where).catch((error: NodeJS.ErrnoException) => {
        throw new FetchError(`cannot read ${request.feed}/${request.fileName} of the mirror (${error.code ?? error.message})`, { notFound: error.code === 'ENOENT' })
      })
    : (await download(request, at.where, settings)).bytes
  return bytes.toString('utf8')
}

const CO_FEED = 'co-dor'
/** The rates page, kept (and, on a mirror, served) under this name. */
const CO_RATES_PAGE_NAME = 'sales-use-tax-rates.html'
/** tax.colorado.gov answers 403 to clients that do not present themselves as a browser (publisher-evidence B, CO row). */
const CO_BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

/**
 * Colorado's DR 1002 workbook: the rates page links each half-year's by the text "January to June
 * YYYY" / "July to December YYYY". The newest period begun is chosen; one beginning after today is
 * held until then; a pin names the linked file to take instead. On a mirror, the page is the file
 * `sales-use-tax-rates.html` of the co-dor folder.
 */
export async function chooseCoRateWorkbook(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const page = await orNoFileOnMirror(CO_FEED, context.settings, () => readPage({ feed: CO_FEED, fileName: CO_RATES_PAGE_NAME, officialUrl: pageUrl, userAgent: CO_BROWSER_USER_AGENT }, context.settings))
  const links = coWorkbookLinks(pageLinks(page), pageUrl).sort((a, b) => b.from.localeCompare(a.from))
  const nameOf = (href: string) => decodeURIComponent(path.posix.basename(new URL(href).pathname))
  const choice = (link: (typeof links)[number], pinned: boolean, how: string): EditionChoice => ({ request: { feed: CO_FEED, fileName: nameOf(link.href), officialUrl: link.href, userAgent: CO_BROWSER_USER_AGENT }, edition: link.from, pinned, how })
  const pin = pinsOf('CO', context.settings).find((name) => CO_WORKBOOK.test(name))
  if (pin) {
    const link = links.find((l) => nameOf(l.href) === pin)
    if (!link) throw new Error(`TAXATLAS_PIN names ${pin} for CO, which the rates page ${pageUrl} does not link (it links ${links.map((l) => nameOf(l.href)).join(', ') || 'no workbook by period'})`)
    return choice(link, true, `${pin}: "${link.text}", pinned by the operator (TAXATLAS_PIN); newer editions are not looked for`)
  }
  const today = context.settings.now.toISOString().slice(0, 10)
  const held = links.filter((l) => l.from > today).map((l) => `"${l.text}"`)
  const inEffect = links.filter((l) => l.from <= today)
  const [newest] = inEffect
  if (!newest) {
    if (held.length) throw new Error(`rates page ${pageUrl} links only workbooks of periods not yet begun (${held.join(', ')}); held until then`)
    throw new Error(`rates page ${pageUrl} links no workbook by the text "January to June YYYY" or "July to December YYYY": its layout changed`)
  }
  const twins = [...new Set(inEffect.filter((l) => l.from === newest.from).map((l) => l.href))]
  if (twins.length > 1) throw new Error(`rates page ${pageUrl} links ${twins.length} workbooks for the period beginning ${newest.from}: ${twins.map(nameOf).join(', ')}`)
  return choice(newest, false, `${nameOf(newest.href)}: "${newest.text}", the newest of ${links.length} workbook(s) linked from ${pageUrl}${held.length ? `; held until their period: ${held.join(', ')}` : ''}`)
}

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

/** ARSSTC's rate sheet: `ARSSTC-Sales-Tax-Rate-Sheet-9-1-26.xlsx` (M-D-YY, or a 4-digit year), or the same wrapped in a ZIP. */
const AK_RATE_SHEET = /^ARSSTC-Sales-Tax-Rate-Sheet-(\d{1,2})-(\d{1,2})-(\d{4}|\d{2})\.(xlsx|zip)$/i
const akEditionDate = (name: string): string | null => {
  const match = AK_RATE_SHEET.exec(name)
  return match ? `${match[3]!.length === 2 ? `20${match[3]}` : match[3]}-${match[1]!.padStart(2, '0')}-${match[2]!.padStart(2, '0')}` : null
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

/** The name Florida's surtax workbook is kept under: PointMatch answers it to a postback, under no name of its own. */
export const FL_SURTAX_WORKBOOK = 'DiscretionarySalesSurtaxRates.xlsx'
const FL_DOWNLOAD_ALL = 'Download All'

/**
 * Florida's surtax workbook: at the publisher, PointMatch's "Download All" postback; on a mirror,
 * the workbook its fl-dor-surtax folder lists.
 */
export async function chooseFlSurtaxWorkbook(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  if (context.settings.mirror.kind === 'official') {
    return { request: { feed: 'fl-dor-surtax', fileName: FL_SURTAX_WORKBOOK, officialUrl: pageUrl }, postback: FL_DOWNLOAD_ALL, edition: CURRENT_EDITION, pinned: false, how: `${FL_SURTAX_WORKBOOK}: the "${FL_DOWNLOAD_ALL}" postback of ${pageUrl}` }
  }
  const listing = await listingOrNoFile('fl-dor-surtax', pageUrl, context)
  const workbooks = listing.files.filter((file) => /\.xlsx$/i.test(file.name))
  if (workbooks.length !== 1) throw new Error(`mirror listing ${listing.where} holds ${workbooks.length} workbooks (${workbooks.map((w) => w.name).join(', ') || 'none'}), not one`)
  const [workbook] = workbooks
  return { request: { feed: 'fl-dor-surtax', fileName: workbook!.name, officialUrl: workbook!.officialUrl }, edition: CURRENT_EDITION, pinned: false, how: `${workbook!.name}: the workbook of ${listing.where}` }
}

/**
 * A feed's listing; a mirror (TAXATLAS_MIRROR) with no folder for the feed carries none of its files,
 * so the state's next feed serves (NoFileForState). At the publisher, a missing page is a failure.
 */
async function listingOrNoFile(feed: string, pageUrl: string, context: ChoiceContext) {
  return orNoFileOnMirror(feed, context.settings, () => context.listings.get(feed, pageUrl))
}

/** `read()`, with a mirror's missing file or folder for `feed` turned into NoFileForState (at the publisher it stays a failure). */
export async function orNoFileOnMirror<T>(feed: string, settings: PipelineSettings, read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (settings.mirror.kind !== 'official' && error instanceof FetchError && error.notFound) throw new NoFileForState(`the mirror holds no ${feed} files (${error.message})`)
    throw error
  }
}

/** A file published under one fixed name for its current edition (IDOR's ordmache-current.txt): fetched as it is. */
export function currentFileChoice(feed: string, url: string): EditionChoice {
  const fileName = decodeURIComponent(path.posix.basename(new URL(url).pathname))
  return { request: { feed, fileName, officialUrl: url }, edition: CURRENT_EDITION, pinned: false, how: `${fileName}: the publisher's current file at its fixed address` }
}

/** Pins of a state that none of its feeds can use are an error, not silently ignored. */
export function assertPinsUsable(descriptor: StateDescriptor, settings: PipelineSettings): void {
  const usable = (name: string) =>
    descriptor.feeds.some((feed) => {
      if (feed.kind === 'sst') {
        const file = parseSstFileName(name)
        return file !== null && file.state === descriptor.code && (file.kind === 'rate' || feed.boundaryUrl !== undefined)
      }
      if (feed.kind === 'tx-comptroller') return TX_RATE_FILE.test(name)
      if (feed.kind === 'az-dor-tpt') return AZ_RATE_TABLE.test(name)
      if (feed.kind === 'co-dor') return CO_WORKBOOK.test(name)
      return feed.kind === 'cdtfa' && CDTFA_WORKBOOK.test(name)
    })
  const unusable = pinsOf(descriptor.code, settings).filter((name) => !usable(name))
  if (unusable.length) throw new Error(`TAXATLAS_PIN names ${unusable.join(', ')} for ${descriptor.code}, which none of its feeds (${descriptor.feeds.map((f) => f.kind).join(', ')}) publishes`)
}

/**
 * True when `candidate` is an older edition than `inService` of the same feed: a listing that
 * went back in time (a restored old page, a mirror out of date) must not replace newer data.
 */
export function isOlderEdition(feed: FeedKind, candidate: string, inService: string): boolean {
  if (feed === 'sst') {
    const [a, b] = [sstEditionKey(candidate), sstEditionKey(inService)]
    return a !== null && b !== null && a < b
  }
  if (feed === 'cdtfa' || feed === 'az-dor-tpt' || feed === 'mo-dor' || feed === 'co-dor' || feed === 'nm-trd-grt' || feed === 'ak-arsstc') return /^\d{4}-\d{2}-\d{2}$/.test(inService) && candidate < inService
  if (feed === 'tx-comptroller') return /^\d{4}Q[1-4]$/.test(candidate) && /^\d{4}Q[1-4]$/.test(inService) && candidate < inService
  return false
}

/** A file name of a feed's editions → what it is, so a new file is compared with the one in service of the same role. */
export function sourceRole(name: string): string {
  const sst = parseSstFileName(name)
  if (sst) return `sst ${sst.state} ${sst.kind}`
  if (TX_RATE_FILE.test(name)) return 'tx rate file'
  if (AZ_RATE_TABLE.test(name)) return 'az rate table'
  return CDTFA_WORKBOOK.test(name) ? 'cdtfa workbook' : name
}

const pinnedChoice = (feed: string, fileName: string, indexUrl: string, edition: string): EditionChoice => ({
  request: { feed, fileName, officialUrl: new URL(fileName, indexUrl).href },
  edition,
  pinned: true,
  how: `${fileName}: pinned by the operator (TAXATLAS_PIN); newer editions are not looked for`,
})

const pinsOf = (state: string, settings: PipelineSettings): readonly string[] => settings.pins.get(state) ?? []
