// Picks the one data file out of a downloaded ZIP explicitly (trap P3); the caller records
// the member name in the manifest.
import { unzipSync } from 'fflate'

export type ArchiveMember = { member: string; bytes: Uint8Array }

const DATA_FILE = /\.(csv|txt)$/i

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]

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

/**
 * Returns the data member of `zipBytes`: the CSV/TXT whose base name equals the archive's base
 * name (case-insensitive), else the only data file; anything else is an error listing the members.
 * `pattern` narrows which members count as data files (default: `.csv` or `.txt`).
 */
export function extractMember(zipBytes: Uint8Array, archiveName: string, pattern: RegExp = DATA_FILE): ArchiveMember {
  // First pass reads the central directory only; nothing is inflated.
  const names: string[] = []
  unzipSync(zipBytes, { filter: (file) => (names.push(file.name), false) })

  const dataFiles = names.filter((name) => !isMetadataEntry(name) && pattern.test(baseName(name)))
  const wanted = stem(baseName(archiveName))
  const sameName = dataFiles.filter((name) => DATA_FILE.test(name) && stem(baseName(name)) === wanted)
  const listing = `members: ${names.length ? names.join(', ') : '(none)'}`

  let chosen: string
  if (sameName.length === 1) chosen = sameName[0]
  else if (sameName.length > 1) throw new Error(`${archiveName}: several members named like the archive; ${listing}`)
  else if (dataFiles.length === 1) chosen = dataFiles[0]
  else if (dataFiles.length === 0) throw new Error(`${archiveName}: no data file matching ${pattern}; ${listing}`)
  else throw new Error(`${archiveName}: ${dataFiles.length} data files and none named like the archive; ${listing}`)

  const bytes = unzipSync(zipBytes, { filter: (file) => file.name === chosen })[chosen]
  if (!bytes) throw new Error(`${archiveName}: member ${chosen} could not be extracted`)
  return { member: chosen, bytes }
}
