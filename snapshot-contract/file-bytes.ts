// Small file helpers shared by the pipeline and the server: content hashes and atomic writes.
import { createHash, webcrypto } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The same hash computed on libuv's thread pool: the event loop goes on meanwhile (large files, start-up). */
export const sha256HexOffThread = async (bytes: Uint8Array) => Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex')

/** Writes `<file>.tmp-<pid>` and renames it over the target, so no reader sees half a file. */
export async function writeAtomically(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true })
  const temporary = `${file}.tmp-${process.pid}`
  await writeFile(temporary, data)
  await rename(temporary, file)
}
