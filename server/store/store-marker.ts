// How the server knows a store existed at a path before: a marker file beside it
// (`<store>.created`, a line of JSON: when and by which process the store was created), written
// when the server first creates or opens the store and never removed by it. A store file that is
// missing while its marker is there was lost (removed, or a volume not mounted): the server
// refuses to create an empty store in its place — every account, key and order would silently be
// gone — unless told to (`--init` / TAXATLAS_STORE_INIT). A directory with neither is a first
// start, and the store is created. Removing the store's whole directory removes the marker too:
// that cannot be told from a first start (docs/reliability.md).
import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import * as z from 'zod'
import { writeAtomically } from '../../snapshot-contract/file-bytes.ts'

export const markerPath = (storePath: string) => `${storePath}.created`

const Marker = z.object({ created_at: z.string(), pid: z.number().int() })
export type Marker = z.infer<typeof Marker>

/** The marker beside the store; a marker that cannot be parsed still says a store was here. */
export async function readMarker(storePath: string): Promise<Marker | { created_at: null } | null> {
  const text = await readFile(markerPath(storePath), 'utf8').catch(() => null)
  if (text === null) return null
  try {
    return Marker.parse(JSON.parse(text))
  } catch {
    return { created_at: null }
  }
}

export async function writeMarker(storePath: string, now: number): Promise<void> {
  await writeAtomically(markerPath(storePath), `${JSON.stringify({ created_at: new Date(now).toISOString(), pid: process.pid })}\n`)
}

/** The store file is missing although a store was created at its path (its marker says when). */
export class StoreMissingError extends Error {
  constructor(readonly storePath: string, createdAt: string | null) {
    super(
      `the store file ${storePath} is missing, but a store was created there${createdAt ? ` on ${createdAt}` : ''} (${path.basename(markerPath(storePath))} beside it): ` +
        'restore the file (and its .wal, if any) from a backup, or start with --init (TAXATLAS_STORE_INIT=1) to create an empty store; no empty store is created in its place',
    )
  }
}

/**
 * Checks, before the store is opened, that opening it cannot create an empty store where one was:
 * throws StoreMissingError when the file is missing and its marker is there, unless `init`.
 * Makes the directory on a first start.
 */
export async function checkStoreFile(storePath: string, options: { init: boolean }): Promise<'exists' | 'create'> {
  if (existsSync(storePath)) return 'exists'
  const marker = await readMarker(storePath)
  if (marker && !options.init) throw new StoreMissingError(storePath, marker.created_at)
  await mkdir(path.dirname(storePath), { recursive: true })
  return 'create'
}
