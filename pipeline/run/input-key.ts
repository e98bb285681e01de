// A state's input key: a hash of everything its compiled data depends on (the bytes of its
// source files, the geography inputs, its descriptor and the pipeline's own code and locked
// dependencies). Equal keys mean a re-parse would rebuild the data in service, so it is skipped.
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { StateDescriptor } from '../../sources/descriptor.ts'

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const CODE_FOLDERS = ['pipeline', 'sources', 'snapshot-contract']

let fingerprint: Promise<string> | null = null

/** sha256 over the pipeline's source files and package-lock.json, computed once per process. */
export function codeFingerprint(): Promise<string> {
  fingerprint ??= (async () => {
    const hash = createHash('sha256')
    for (const folder of CODE_FOLDERS) {
      const entries = await readdir(path.join(PROJECT_ROOT, folder), { recursive: true })
      for (const entry of entries.filter((name) => name.endsWith('.ts')).sort()) {
        hash.update(`${folder}/${entry}\0`).update(await readFile(path.join(PROJECT_ROOT, folder, entry)))
      }
    }
    hash.update(await readFile(path.join(PROJECT_ROOT, 'package-lock.json')).catch(() => Buffer.alloc(0)))
    return hash.digest('hex')
  })()
  return fingerprint
}

/** `feed`: the feed of the descriptor's list the files were fetched for. */
export function inputKey(parts: { code: string; descriptor: StateDescriptor; feed: string; files: string[]; geography: Record<string, string> }): string {
  const geography = Object.entries(parts.geography).sort(([a], [b]) => a.localeCompare(b))
  return createHash('sha256').update(JSON.stringify([parts.code, parts.descriptor, parts.feed, parts.files, geography])).digest('hex')
}
