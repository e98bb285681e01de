// ZIP archives as publishers ship them: the one data file picked out explicitly (trap P3; the
// caller records the member name in the manifest), and every member inflated in small steps with
// its size and its inflation ratio bounded (fetch/input-limits.ts), so a ZIP bomb fails its own
// state instead of filling the process's memory.
import { Unzip, UnzipInflate, unzipSync } from 'fflate'
import { INPUT_LIMITS, inMiB } from './input-limits.ts'

export type ArchiveMember = { member: string; bytes: Uint8Array }

const DATA_FILE = /\.(csv|txt)$/i

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]

/** Compressed bytes handed to the inflater at a time: at most ~64 MiB come out of one step, whatever the ratio. */
const STEP = 64 * 1024

/** Whether the bytes are a ZIP archive, whatever the name they came under. */
export const isZipContainer = (bytes: Uint8Array): boolean => ZIP_MAGIC.every((byte, i) => bytes[i] === byte)

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.')
  return (dot > 0 ? name.slice(0, dot) : name).toLowerCase()
}

function isMetadataEntry(name: string): boolean {
  return name.endsWith('/') || name.startsWith('__MACOSX/') || baseName(name) === '.DS_Store'
}

/** The names of the archive's members, from its central directory: nothing is inflated. */
function memberNames(zipBytes: Uint8Array, archiveName: string): string[] {
  const names: string[] = []
  try {
    unzipSync(zipBytes, { filter: (file) => (names.push(file.name), false) })
  } catch (error) {
    throw new Error(`${archiveName}: not a readable ZIP archive (${(error as Error).message})`)
  }
  return names
}

/**
 * The data member of `zipBytes`: the CSV/TXT whose base name equals the archive's base name
 * (case-insensitive), else the only data file; anything else is an error listing the members.
 * `pattern` narrows which members count as data files (default: `.csv` or `.txt`).
 */
export function findMember(zipBytes: Uint8Array, archiveName: string, pattern: RegExp = DATA_FILE): string {
  const names = memberNames(zipBytes, archiveName)
  const dataFiles = names.filter((name) => !isMetadataEntry(name) && pattern.test(baseName(name)))
  const wanted = stem(baseName(archiveName))
  const sameName = dataFiles.filter((name) => DATA_FILE.test(name) && stem(baseName(name)) === wanted)
  const listing = `members: ${names.length ? names.join(', ') : '(none)'}`

  if (sameName.length === 1) return sameName[0]
  if (sameName.length > 1) throw new Error(`${archiveName}: several members named like the archive; ${listing}`)
  if (dataFiles.length === 1) return dataFiles[0]
  if (dataFiles.length === 0) throw new Error(`${archiveName}: no data file matching ${pattern}; ${listing}`)
  throw new Error(`${archiveName}: ${dataFiles.length} data files and none named like the archive; ${listing}`)
}

/** The data member of `zipBytes` (see `findMember`), inflated whole: at most INPUT_LIMITS.textBytes. */
export function extractMember(zipBytes: Uint8Array, archiveName: string, pattern: RegExp = DATA_FILE): ArchiveMember {
  const member = findMember(zipBytes, archiveName, pattern)
  const bytes = readMembers(zipBytes, archiveName, (name) => name === member)[member]
  if (!bytes) throw new Error(`${archiveName}: member ${member} could not be extracted`)
  return { member, bytes }
}

/** The members `wanted` accepts, each inflated whole (at most `maxBytes` each). */
export function readMembers(zipBytes: Uint8Array, archiveName: string, wanted: (name: string) => boolean, maxBytes: number = INPUT_LIMITS.textBytes): Record<string, Uint8Array> {
  const chunks = new Map<string, Uint8Array[]>()
  for (const { member, chunk } of inflateMembers(zipBytes, archiveName, wanted, maxBytes)) {
    const list = chunks.get(member)
    if (list) list.push(chunk)
    else chunks.set(member, [chunk])
  }
  return Object.fromEntries([...chunks].map(([member, list]) => [member, list.length === 1 ? list[0]! : Buffer.concat(list)]))
}

/** Inflates every member once, keeping nothing: throws when one passes the limits (a workbook before a reader unpacks it). */
export function assertArchiveWithinLimits(zipBytes: Uint8Array, archiveName: string, maxBytes: number = INPUT_LIMITS.textBytes): void {
  for (const _ of inflateMembers(zipBytes, archiveName, () => true, maxBytes));
}

/** One member's bytes, a chunk at a time, never whole: at most `maxBytes` (a boundary file read line by line). */
export function* memberChunks(zipBytes: Uint8Array, archiveName: string, member: string, maxBytes: number = INPUT_LIMITS.streamedBytes): Generator<Uint8Array> {
  for (const { chunk } of inflateMembers(zipBytes, archiveName, (name) => name === member, maxBytes)) yield chunk
}

/**
 * The chunks of the members `wanted` accepts, in archive order. The compressed bytes go to the
 * inflater a step at a time; a member that inflates past `maxBytes`, or past INPUT_LIMITS.inflateRatio
 * times the compressed bytes it took once over INPUT_LIMITS.ratioFromBytes, stops the reading
 * with an error naming it.
 */
function* inflateMembers(zipBytes: Uint8Array, archiveName: string, wanted: (name: string) => boolean, maxBytes: number): Generator<{ member: string; chunk: Uint8Array }> {
  const ready: { member: string; chunk: Uint8Array }[] = []
  const unfinished = new Set<string>()
  const seen = new Set<string>()
  let pushed = 0
  let stepFrom = 0
  let failure: Error | null = null
  const unzip = new Unzip((file) => {
    if (!wanted(file.name)) return
    seen.add(file.name)
    unfinished.add(file.name)
    // its local header came in the current step: its compressed bytes start there at the earliest
    const from = stepFrom
    let inflated = 0
    file.ondata = (error, chunk, final) => {
      if (failure) return
      if (error) {
        failure = new Error(`${archiveName}: member ${file.name} cannot be inflated (${error.message})`)
        return
      }
      inflated += chunk.length
      failure = overLimit(archiveName, file.name, inflated, pushed - from, maxBytes)
      if (failure) return file.terminate()
      ready.push({ member: file.name, chunk })
      if (final) unfinished.delete(file.name)
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  while (pushed < zipBytes.length) {
    stepFrom = pushed
    pushed = Math.min(pushed + STEP, zipBytes.length)
    try {
      unzip.push(zipBytes.subarray(stepFrom, pushed), pushed === zipBytes.length)
    } catch (error) {
      failure ??= new Error(`${archiveName}: not a readable ZIP archive (${(error as Error).message})`)
    }
    if (failure) throw failure
    yield* ready.splice(0)
  }
  if (unfinished.size > 0) throw new Error(`${archiveName}: member ${[...unfinished].join(', ')} ends before its data does (a truncated archive)`)
  if (seen.size === 0 && zipBytes.length > 0 && !isZipContainer(zipBytes)) throw new Error(`${archiveName}: not a ZIP archive`)
}

function overLimit(archiveName: string, member: string, inflated: number, compressed: number, maxBytes: number): Error | null {
  const where = `${archiveName}: member ${member}`
  if (inflated > maxBytes) return new Error(`${where} inflates past ${inMiB(maxBytes)}, the most such a member may have (docs/reliability.md, input limits): refused`)
  const ratio = inflated / Math.max(1, compressed)
  if (inflated > INPUT_LIMITS.ratioFromBytes && ratio > INPUT_LIMITS.inflateRatio) {
    return new Error(`${where} inflates ${Math.round(ratio)} times its compressed size (${inMiB(inflated)} so far), over the ${INPUT_LIMITS.inflateRatio} a data file may reach: a ZIP bomb, refused (docs/reliability.md, input limits)`)
  }
  return null
}
