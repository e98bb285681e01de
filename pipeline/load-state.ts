// Loads one state from the feed its descriptor names, in two steps: fetch its sources (the
// edition chosen from the publisher's listing, or the pinned one, and the newest manual drop),
// then compile them. The refresh compares what was fetched with what is in service in between.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { StateDescriptor } from '../sources/descriptor.ts'
import { RULES_TABLE_AS_OF, stateFacts, stateRateOn, type StateFacts } from '../sources/state-facts.ts'
import { extractMember } from './archive.ts'
import { assertPinsUsable, chooseCdtfaWorkbook, chooseSstFile, type EditionChoice } from './edition-choice.ts'
import { compileAvalara, parseAvalaraZip5, pickNewestDrop } from './feeds/avalara-zip5.ts'
import { compileCdtfa, parseCdtfaWorkbook } from './feeds/cdtfa-workbook.ts'
import { compileSstStateStreaming } from './feeds/sst.ts'
import { compileStatutory, statutoryRates } from './feeds/statutory.ts'
import { placeUnlistedZips } from './feeds/unlisted-zips.ts'
import { fetchSource, type FetchedSource } from './fetch-source.ts'
import { sha256Hex } from '../snapshot-contract/file-bytes.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, RawFile } from '../snapshot-contract/model.ts'
import type { PipelineSettings } from './settings.ts'
import type { Listings } from './source-listing.ts'
import { decodeText } from './text-decoding.ts'

export type LoadContext = { settings: PipelineSettings; geography: Geography; listings: Listings }

/** A manual drop file read from the drop directory. */
export type DropFile = { raw: RawFile; bytes: Buffer }

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

export async function fetchStateSources(descriptor: StateDescriptor, context: Pick<LoadContext, 'settings' | 'listings'>): Promise<StateSources> {
  const { feed } = descriptor
  assertPinsUsable(descriptor, context.settings)
  const choices: EditionChoice[] = []
  if (feed.kind === 'sst') {
    choices.push(await chooseSstFile(descriptor.code, 'rate', feed.ratesUrl, context))
    if (feed.boundaryUrl) choices.push(await chooseSstFile(descriptor.code, 'boundary', feed.boundaryUrl, context))
  } else if (feed.kind === 'cdtfa') {
    choices.push(await chooseCdtfaWorkbook(feed.pageUrl, context))
  }
  const fetched = await Promise.all(choices.map((choice) => fetchSource(choice.request, context.settings)))
  if (feed.kind === 'statutory') return { fetched, choices }
  try {
    const drop = await readNewestDrop(descriptor.code, context.settings.dropsDir)
    if (!drop && feed.kind === 'avalara-zip5') {
      throw new Error(`no manual drop for ${descriptor.code} in ${context.settings.dropsDir} (${feed.dropPattern})`)
    }
    return { fetched, choices, ...(drop ? { drop } : {}) }
  } catch (error) {
    if (feed.kind === 'avalara-zip5') throw error
    return { fetched, choices, dropError: (error as Error).message }
  }
}

export async function compileState(descriptor: StateDescriptor, sources: StateSources, context: LoadContext): Promise<FeedResult> {
  const { feed } = descriptor
  switch (feed.kind) {
    case 'sst': {
      const [rateFile, boundaryFile] = sources.fetched.map(fileText)
      const result = await compileSstStateStreaming({
        state: descriptor.code,
        stateName: descriptor.name,
        rateFile: { name: rateFile!.name, text: rateFile!.text },
        ...(boundaryFile ? { boundaryFile: { name: boundaryFile.name, lines: boundaryFile.text } } : {}),
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

/** Fetch, then compile: one state's load with no comparison against the data in service. */
export async function loadState(descriptor: StateDescriptor, context: LoadContext): Promise<FeedResult> {
  return compileState(descriptor, await fetchStateSources(descriptor, context), context)
}

function factsOf(descriptor: StateDescriptor): StateFacts {
  const facts = stateFacts(descriptor.code)
  if (!facts) throw new Error(`${descriptor.code} has no row in the rules table (sources/state-facts.ts)`)
  return facts
}

/** The newest manual drop of the state's Avalara ZIP5 table; undefined when there is none. */
export async function readNewestDrop(state: string, dropsDir: string): Promise<DropFile | undefined> {
  const chosen = pickNewestDrop(await listFiles(dropsDir), state)
  if (!chosen) return undefined
  const file = path.join(dropsDir, chosen.path)
  const bytes = await readFile(file)
  return { bytes, raw: { url: `file://${file}`, name: path.basename(file), sha256: sha256Hex(bytes), size: bytes.length } }
}

/** A drop's rows, parsed and validated (avalara-zip5.ts). */
export const parseDrop = (drop: DropFile) => parseAvalaraZip5(decodeText(drop.bytes, drop.raw.name, { rowsCheckDamage: true }), drop.raw.name)

/**
 * An official state's result with the ZIPs the geography lacks placed by an aggregator drop's
 * region names (feeds/unlisted-zips.ts), when a drop of the state is at hand; a drop that cannot
 * be read leaves the result as it is, with a note.
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
  return placed === result ? result : { ...placed, files: [...placed.files, sources.drop.raw] }
}

function fileText(fetched: FetchedSource): { name: string; text: string; member?: string } {
  if (/\.zip$/i.test(fetched.name)) {
    const { member, bytes } = extractMember(fetched.bytes, fetched.name)
    return { name: member, text: decodeText(bytes, `${fetched.name}:${member}`), member }
  }
  return { name: fetched.name, text: decodeText(fetched.bytes, fetched.name) }
}

const rawFile = ({ url, name, sha256, size }: FetchedSource): RawFile => ({ url, name, sha256, size })

const withFiles = (result: FeedResult, files: RawFile[]): FeedResult => ({ ...result, files })

/** Every file below a directory, as paths relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? (entry as { path: string }).path, entry.name)))
}
