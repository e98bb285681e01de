// Loads one state from the feed its descriptor names: fetch or read the file, parse, compile.
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import type { StateDescriptor } from '../sources/descriptor.ts'
import { RULES_TABLE_AS_OF, stateFacts, stateRateOn, type StateFacts } from '../sources/state-facts.ts'
import { extractMember } from './archive.ts'
import { compileAvalara, parseAvalaraZip5, pickNewestDrop, type AvalaraZip5File } from './feeds/avalara-zip5.ts'
import { compileCdtfa, parseCdtfaWorkbook } from './feeds/cdtfa-workbook.ts'
import { compileSstState } from './feeds/sst.ts'
import { compileStatutory, statutoryRates } from './feeds/statutory.ts'
import { placeUnlistedZips } from './feeds/unlisted-zips.ts'
import { fetchSource, type FetchedSource } from './fetch-source.ts'
import { sha256Hex } from '../snapshot-contract/file-bytes.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, RawFile } from '../snapshot-contract/model.ts'
import type { PipelineSettings } from './settings.ts'
import { decodeText } from './text-decoding.ts'
import { readFile } from 'node:fs/promises'

export type LoadContext = { settings: PipelineSettings; geography: Geography }

export async function loadState(descriptor: StateDescriptor, context: LoadContext): Promise<FeedResult> {
  const { feed } = descriptor
  switch (feed.kind) {
    case 'sst': {
      const fetched = await fetchSource(
        { feed: 'sst', fileName: feed.rateFile, officialUrl: new URL(feed.rateFile, feed.ratesUrl).href },
        context.settings,
      )
      const { text, member } = fileText(fetched)
      const result = await compileSstState({
        state: descriptor.code,
        stateName: descriptor.name,
        rateFile: { name: member ?? fetched.name, text },
        geography: context.geography,
      })
      return withUnlistedZips(withFiles(result, [{ ...rawFile(fetched), ...(member ? { member } : {}) }]), descriptor.code, context)
    }
    case 'cdtfa': {
      const fileName = decodeURIComponent(path.posix.basename(new URL(feed.url).pathname))
      const fetched = await fetchSource({ feed: 'cdtfa', fileName, officialUrl: feed.url }, context.settings)
      const workbook = await parseCdtfaWorkbook(fetched.bytes, fetched.name)
      const result = compileCdtfa({
        workbook,
        fileName: fetched.name,
        statewideRate: stateRateOn(factsOf(descriptor), RULES_TABLE_AS_OF)!,
        geography: context.geography,
      })
      return withUnlistedZips(withFiles(result, [rawFile(fetched)]), descriptor.code, context)
    }
    case 'avalara-zip5': {
      const drop = await readNewestDrop(descriptor.code, context.settings.dropsDir)
      if (!drop) throw new Error(`no manual drop for ${descriptor.code} in ${context.settings.dropsDir} (${feed.dropPattern})`)
      const result = compileAvalara({ ...drop.parsed, state: descriptor.code, geography: context.geography })
      return withFiles({ ...result, notes: [...drop.parsed.notes, ...result.notes] }, [drop.raw])
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

function factsOf(descriptor: StateDescriptor): StateFacts {
  const facts = stateFacts(descriptor.code)
  if (!facts) throw new Error(`${descriptor.code} has no row in the rules table (sources/state-facts.ts)`)
  return facts
}

/** The newest manual drop of the state's Avalara ZIP5 table, parsed; undefined when there is none. */
export async function readNewestDrop(state: string, dropsDir: string): Promise<{ parsed: AvalaraZip5File; raw: RawFile } | undefined> {
  const chosen = pickNewestDrop(await listFiles(dropsDir), state)
  if (!chosen) return undefined
  const file = path.join(dropsDir, chosen.path)
  const bytes = await readFile(file)
  const fileName = path.basename(file)
  const parsed = parseAvalaraZip5(decodeText(bytes, fileName, { rowsCheckDamage: true }), fileName)
  return { parsed, raw: { url: `file://${file}`, name: fileName, sha256: sha256Hex(bytes), size: bytes.length } }
}

/**
 * An official state's result with the ZIPs the geography lacks placed by an aggregator drop's
 * region names (feeds/unlisted-zips.ts), when a drop of the state is at hand; a drop that cannot
 * be read leaves the result as it is, with a note.
 */
async function withUnlistedZips(result: FeedResult, state: string, context: LoadContext): Promise<FeedResult> {
  let drop
  try {
    drop = await readNewestDrop(state, context.settings.dropsDir)
  } catch (error) {
    return { ...result, notes: [...result.notes, `ZIPs the ZIP geography lacks left unplaced: the aggregator drop could not be read (${(error as Error).message})`] }
  }
  if (!drop) return result
  const placed = placeUnlistedZips(result, { state, geography: context.geography, rows: drop.parsed.rows, edition: drop.parsed.edition.edition })
  return placed === result ? result : { ...placed, files: [...placed.files, drop.raw] }
}

function fileText(fetched: FetchedSource): { text: string; member?: string } {
  if (/\.zip$/i.test(fetched.name)) {
    const { member, bytes } = extractMember(fetched.bytes, fetched.name)
    return { text: decodeText(bytes, `${fetched.name}:${member}`), member }
  }
  return { text: decodeText(fetched.bytes, fetched.name) }
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
