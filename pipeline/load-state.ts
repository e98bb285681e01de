// Loads one state from one of the feeds its descriptor lists, in two steps: fetch its sources (the
// edition chosen from the publisher's listing, or the pinned one, and the newest manual drop),
// then compile them. The refresh compares what was fetched with what is in service in between.
// A feed with nothing for the state throws NoFileForState (the next feed serves); any other error
// is a failure of that feed.
import type { Feed, StateDescriptor } from '../sources/descriptor.ts'
import { districtAreasOf } from '../sources/district-areas.ts'
import { RULES_TABLE_AS_OF, stateFacts, stateRateOn, type StateFacts } from '../sources/state-facts.ts'
import { extractMember, isZipContainer } from './archive.ts'
import { assertPinsUsable, chooseCdtfaWorkbook, chooseAzRateTable, chooseMoRateChart, chooseAlRateFile, chooseCoRateWorkbook, chooseNmGrtFile, chooseAkRateSheet, chooseFlSurtaxWorkbook, chooseSstFile, chooseTxRateFile, currentFileChoice, orNoFileOnMirror, type EditionChoice } from './edition-choice.ts'
import { compileAvalara } from './feeds/avalara-zip5.ts'
import { compileCdtfa, parseCdtfaWorkbook } from './feeds/cdtfa-workbook.ts'
import { NoFileForState } from './feeds/no-file-for-state.ts'
import { compileOrdmache } from './feeds/ordmache.ts'
import { parseOrdmacheFile } from './feeds/ordmache-file.ts'
import { fetchByPostback } from './feeds/aspnet-postback.ts'
import { compileAzTpt } from './feeds/az-tpt.ts'
import { parseAzTptFile } from './feeds/az-tpt-file.ts'
import { compileFlSurtax } from './feeds/fl-surtax.ts'
import { parseFlSurtaxWorkbook } from './feeds/fl-surtax-workbook.ts'
import { compileSstStateStreaming } from './feeds/sst.ts'
import { parseAlRateFile } from './feeds/al-rate-file.ts'
import { compileAlRates } from './feeds/al-rates.ts'
import { parseCoRateWorkbook } from './feeds/co-rate-workbook.ts'
import { compileCoRates } from './feeds/co-rates.ts'
import { parseMoRateChart } from './feeds/mo-rate-chart.ts'
import { compileMoRates } from './feeds/mo-rates.ts'
import { parseAkRateSheet } from './feeds/ak-rate-sheet.ts'
import { compileAkRates } from './feeds/ak-rates.ts'
import { parseNmGrtFile } from './feeds/nm-grt-file.ts'
import { compileNmGrt } from './feeds/nm-grt.ts'
import { parseVaRateWorkbook } from './feeds/va-rate-workbook.ts'
import { compileVaRates } from './feeds/va-rates.ts'
import { compileTxComptroller } from './feeds/tx-comptroller.ts'
import { parseTxRateFile } from './feeds/tx-rate-file.ts'
import { compileStatutory, statutoryRates } from './feeds/statutory.ts'
import { aggregatorOverLowerBounds } from './feeds/lower-bound-defaults.ts'
import { placeUnlistedZips } from './feeds/unlisted-zips.ts'
import { fetchSource, type FetchedSource } from './fetch-source.ts'
import { fetchSstChoice } from './sst-other-extension.ts'
import { parseDrop, readNewestDrop, type DropFile } from './manual-drops.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, RawFile } from '../snapshot-contract/model.ts'
import type { PipelineSettings } from './settings.ts'
import type { Listings } from './source-listing.ts'
import { decodeLines, decodeText } from './text-decoding.ts'

export type LoadContext = { settings: PipelineSettings; geography: Geography; listings: Listings }

export type StateSources = {
  /** the publisher's files, in the order the feed reads them (SST: rate file, then boundary file) */
  fetched: FetchedSource[]
  /** how each of `fetched` was chosen */
  choices: EditionChoice[]
  /** the state's newest Avalara drop: the avalara-zip5 feed's data, or an official state's region names */
  drop?: DropFile
  /** why no drop could be read, when one was there */
  dropError?: string
}

export async function fetchStateSources(descriptor: StateDescriptor, feed: Feed, context: Pick<LoadContext, 'settings' | 'listings'>): Promise<StateSources> {
  return fetchChosenSources(descriptor, feed, await chooseEditions(descriptor, feed, context), context)
}

/** The edition of each file the feed reads for the state: the newest listed, or the pinned one. */
export async function chooseEditions(descriptor: StateDescriptor, feed: Feed, context: Pick<LoadContext, 'settings' | 'listings'>): Promise<EditionChoice[]> {
  assertPinsUsable(descriptor, context.settings)
  const choices: EditionChoice[] = []
  if (feed.kind === 'sst') {
    choices.push(await chooseSstFile(descriptor.code, 'rate', feed.ratesUrl, context))
    if (feed.boundaryUrl) choices.push(await chooseSstFile(descriptor.code, 'boundary', feed.boundaryUrl, context))
  } else if (feed.kind === 'cdtfa') {
    choices.push(await chooseCdtfaWorkbook(feed.pageUrl, context))
  } else if (feed.kind === 'idor-ordmache') {
    choices.push(currentFileChoice('idor', feed.url))
  } else if (feed.kind === 'tx-comptroller') {
    choices.push(await chooseTxRateFile(feed, context))
  } else if (feed.kind === 'fl-dor-surtax') {
    choices.push(await chooseFlSurtaxWorkbook(feed.pageUrl, context))
  } else if (feed.kind === 'az-dor-tpt') {
    choices.push(await chooseAzRateTable(feed.pageUrl, context))
  } else if (feed.kind === 'va-tax') {
    choices.push(currentFileChoice('va-tax', feed.url))
  } else if (feed.kind === 'mo-dor') {
    choices.push(await chooseMoRateChart(feed.pageUrl, context))
  } else if (feed.kind === 'al-dor') {
    choices.push(await chooseAlRateFile(feed.pageUrl, context))
  } else if (feed.kind === 'co-dor') {
    choices.push(await chooseCoRateWorkbook(feed.pageUrl, context))
  } else if (feed.kind === 'nm-trd-grt') {
    choices.push(await chooseNmGrtFile(feed.pageUrl, context))
  } else if (feed.kind === 'ak-arsstc') {
    choices.push(await chooseAkRateSheet(feed.pageUrl, context))
  }
  return choices
}

/** The chosen files fetched (`choices` is updated when an SST file is fetched under its other extension), and the state's newest drop. */
export async function fetchChosenSources(descriptor: StateDescriptor, feed: Feed, choices: EditionChoice[], context: Pick<LoadContext, 'settings' | 'listings'>): Promise<StateSources> {
  const fetched = await Promise.all(
    choices.map(async (choice, i) => {
      if (choice.postback) return fetchByPostback(choice.request, choice.postback, context.settings)
      if (feed.kind === 'sst') {
        const got = await fetchSstChoice(choice, context.settings)
        choices[i] = got.choice
        return got.fetched
      }
      return orNoFileOnMirror(choice.request.feed, context.settings, () => fetchSource(choice.request, context.settings))
    }),
  )
  if (feed.kind === 'statutory') return { fetched, choices }
  try {
    const drop = await readNewestDrop(descriptor.code, context.settings.dropsDir)
    if (!drop && feed.kind === 'avalara-zip5') {
      throw new NoFileForState(`no manual drop for ${descriptor.code} in TAXATLAS_DROPS (${feed.dropPattern})`)
    }
    return { fetched, choices, ...(drop ? { drop } : {}) }
  } catch (error) {
    if (feed.kind === 'avalara-zip5') throw error
    return { fetched, choices, dropError: (error as Error).message }
  }
}

export async function compileState(descriptor: StateDescriptor, feed: Feed, sources: StateSources, context: LoadContext): Promise<FeedResult> {
  /** A feed of one file: compiled by `compile` (given the state rate on a date and the chosen edition), the file recorded, unlisted ZIPs placed. */
  const oneFile = async (compile: (fetched: FetchedSource, rateOn: (date: string) => number, edition: string) => FeedResult | Promise<FeedResult>) => {
    const fetched = sources.fetched[0]!
    const result = await compile(fetched, (date) => stateRateOn(factsOf(descriptor), date)!, sources.choices[0]!.edition)
    return withUnlistedZips(withFiles(result, [rawFile(fetched)]), descriptor.code, sources, context)
  }
  switch (feed.kind) {
    case 'sst': {
      const [rateFile, boundaryFile] = [fileText(sources.fetched[0]!), sources.fetched[1] && memberOf(sources.fetched[1])]
      const districtAreas = districtAreasOf(descriptor.code)
      const result = await compileSstStateStreaming({
        state: descriptor.code,
        stateName: descriptor.name,
        rateFile: { name: rateFile!.name, text: rateFile!.text },
        ...(boundaryFile ? { boundaryFile: { name: boundaryFile.name, lines: decodeLines(boundaryFile.bytes, boundaryFile.label) } } : {}),
        ...(districtAreas ? { districtAreas } : {}),
        ...(feed.reading ? { reading: feed.reading } : {}),
        geography: context.geography,
      })
      const files = sources.fetched.map((fetched, i) => {
        const member = [rateFile, boundaryFile][i]?.member
        return { ...rawFile(fetched), ...(member ? { member } : {}) }
      })
      return withUnlistedZips(withFiles(result, files), descriptor.code, sources, context)
    }
    case 'cdtfa': {
      const [fetched] = sources.fetched
      const workbook = await parseCdtfaWorkbook(fetched!.bytes, fetched!.name)
      const result = compileCdtfa({
        workbook,
        fileName: fetched!.name,
        statewideRate: stateRateOn(factsOf(descriptor), RULES_TABLE_AS_OF)!,
        geography: context.geography,
      })
      return withUnlistedZips(withFiles(result, [rawFile(fetched!)]), descriptor.code, sources, context)
    }
    case 'idor-ordmache': {
      const [fetched] = sources.fetched
      const file = parseOrdmacheFile(decodeText(fetched!.bytes, fetched!.name), fetched!.name)
      const result = compileOrdmache({ file, stateRate: stateRateOn(factsOf(descriptor), RULES_TABLE_AS_OF)!, geography: context.geography })
      return withUnlistedZips(withFiles(result, [rawFile(fetched!)]), descriptor.code, sources, context)
    }
    case 'tx-comptroller':
      return oneFile((fetched, rateOn) => {
        const file = parseTxRateFile(textOf(fetched), fetched.name)
        assertInEffect(file.fileName, file.effectiveFrom, context.settings.now)
        return compileTxComptroller({ file, stateRate: rateOn(file.effectiveFrom), geography: context.geography })
      })
    case 'fl-dor-surtax':
      return oneFile(async (fetched, rateOn) => {
        const workbook = await parseFlSurtaxWorkbook(fetched.bytes, fetched.name)
        assertInEffect(workbook.fileName, workbook.asOf, context.settings.now)
        return compileFlSurtax({ workbook, stateRate: rateOn(workbook.asOf), geography: context.geography })
      })
    case 'az-dor-tpt':
      return oneFile((fetched, rateOn, edition) => compileAzTpt({ file: parseAzTptFile(textOf(fetched), fetched.name), stateRate: rateOn(edition), geography: context.geography, edition }))
    case 'va-tax':
      return oneFile(async (fetched, rateOn) => {
        const workbook = await parseVaRateWorkbook(fetched.bytes, fetched.name)
        // The workbook carries no date: its rates answer from the day they were fetched.
        const edition = context.settings.now.toISOString().slice(0, 10)
        return compileVaRates({ workbook, stateRate: rateOn(edition), geography: context.geography, edition })
      })
    case 'mo-dor':
      return oneFile(async (fetched, rateOn, edition) => compileMoRates({ chart: await parseMoRateChart(fetched.bytes, fetched.name), stateRate: rateOn(edition), geography: context.geography, edition }))
    case 'al-dor':
      return oneFile((fetched, rateOn, edition) => compileAlRates({ file: parseAlRateFile(textOf(fetched), fetched.name), stateRate: rateOn(edition), geography: context.geography, edition }))
    case 'co-dor':
      return oneFile(async (fetched, rateOn, edition) => compileCoRates({ workbook: await parseCoRateWorkbook(fetched.bytes, fetched.name), stateRate: rateOn(edition), geography: context.geography, edition }))
    case 'nm-trd-grt':
      return oneFile((fetched, rateOn, edition) => {
        // the csv download is a ZIP holding the CSV and its XML metadata
        const csv = fileText(fetched)
        const file = parseNmGrtFile(csv.text, csv.member ? `${fetched.name}:${csv.member}` : csv.name)
        return compileNmGrt({ file, stateRate: rateOn(edition), geography: context.geography, edition })
      })
    case 'ak-arsstc':
      return oneFile(async (fetched, rateOn) => {
        // the sheet may be linked wrapped in a ZIP
        const bytes = /\.zip$/i.test(fetched.name) ? Buffer.from(extractMember(fetched.bytes, fetched.name, /\.xlsx$/i).bytes) : fetched.bytes
        const sheet = await parseAkRateSheet(bytes, fetched.name)
        assertInEffect(sheet.fileName, sheet.asOf, context.settings.now)
        return compileAkRates({ sheet, stateRate: rateOn(sheet.asOf), geography: context.geography, edition: sheet.asOf })
      })
    case 'avalara-zip5': {
      const drop = sources.drop!
      const parsed = parseDrop(drop)
      const result = compileAvalara({ ...parsed, state: descriptor.code, geography: context.geography })
      return withFiles({ ...result, notes: [...parsed.notes, ...result.notes] }, [drop.raw])
    }
    case 'statutory':
      return compileStatutory({
        state: descriptor.code,
        stateName: descriptor.name,
        rates: statutoryRates(factsOf(descriptor)),
        geography: context.geography,
      })
  }
}

/** Fetch, then compile: one state's load from one feed, with no comparison against the data in service. */
export async function loadFeed(descriptor: StateDescriptor, feed: Feed, context: LoadContext): Promise<FeedResult> {
  return compileState(descriptor, feed, await fetchStateSources(descriptor, feed, context), context)
}

/** A file whose rates take effect after today is held until then: the data in service keeps serving. */
function assertInEffect(fileName: string, effectiveFrom: string, now: Date): void {
  const today = now.toISOString().slice(0, 10)
  if (effectiveFrom > today) throw new Error(`${fileName}: its rates take effect on ${effectiveFrom}, after today (${today}); held until then`)
}

function factsOf(descriptor: StateDescriptor): StateFacts {
  const facts = stateFacts(descriptor.code)
  if (!facts) throw new Error(`${descriptor.code} has no row in the rules table (sources/state-facts.ts)`)
  return facts
}

/**
 * An official state's result with the ZIPs the geography lacks placed by an aggregator drop's
 * region names (feeds/unlisted-zips.ts), and the ZIPs whose official answer is only a lower bound
 * answered by the drop's figure (feeds/lower-bound-defaults.ts), when a drop of the state is at
 * hand; a drop that cannot be read leaves the result as it is, with a note.
 */
function withUnlistedZips(result: FeedResult, state: string, sources: StateSources, context: LoadContext): FeedResult {
  const unreadable = (reason: string): FeedResult => ({
    ...result,
    notes: [...result.notes, `ZIPs the ZIP geography lacks left unplaced: the aggregator drop could not be read (${reason})`],
  })
  if (sources.dropError) return unreadable(sources.dropError)
  if (!sources.drop) return result
  let parsed
  try {
    parsed = parseDrop(sources.drop)
  } catch (error) {
    return unreadable((error as Error).message)
  }
  const placed = placeUnlistedZips(result, { state, geography: context.geography, rows: parsed.rows, edition: parsed.edition.edition })
  const { edition, editionDate } = parsed.edition
  const bounded = aggregatorOverLowerBounds(placed, { rows: parsed.rows, fileName: sources.drop.raw.name, edition, editionDate })
  return bounded === result ? result : { ...bounded, files: [...bounded.files, sources.drop.raw] }
}

/** A fetched file's bytes, or those of the one member of a ZIP archive; `label` names it in messages. */
function memberOf(fetched: FetchedSource): { name: string; bytes: Uint8Array; label: string; member?: string } {
  if (/\.zip$/i.test(fetched.name) || isZipContainer(fetched.bytes)) {
    const { member, bytes } = extractMember(fetched.bytes, fetched.name)
    return { name: member, bytes, label: `${fetched.name}:${member}`, member }
  }
  return { name: fetched.name, bytes: fetched.bytes, label: fetched.name }
}

function fileText(fetched: FetchedSource): { name: string; text: string; member?: string } {
  const { bytes, label, ...file } = memberOf(fetched)
  return { ...file, text: decodeText(bytes, label) }
}

const textOf = (fetched: FetchedSource): string => decodeText(fetched.bytes, fetched.name)

const rawFile = ({ url, name, sha256, size }: FetchedSource): RawFile => ({ url, name, sha256, size })

const withFiles = (result: FeedResult, files: RawFile[]): FeedResult => ({ ...result, files })
