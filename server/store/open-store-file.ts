// One attempt at opening the store file, for the server and for the admin command alike: never
// creating an empty store where one was (store-marker.ts), and, when it fails, saying why in
// terms an operator can act on — locked by another process (the kernel's lock table names it),
// missing, unreadable (damaged, truncated, not a DuckDB store, no permission) — read from
// DuckDB's error type and the file itself, not from the words of DuckDB's message.
import { existsSync } from 'node:fs'
import { Database, type WriteGuard } from './database.ts'
import { duckdbErrorType } from './duckdb-error-type.ts'
import { identityOf, sameFile, type FileIdentity } from './file-identity.ts'
import { lockHolder } from './file-lock-holder.ts'
import { checkStoreFile, readMarker, StoreMissingError, writeMarker } from './store-marker.ts'

export type OpenProblem = 'locked' | 'missing' | 'unreadable' | 'unavailable'

export class StoreOpenError extends Error {
  constructor(
    readonly problem: OpenProblem,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options)
  }
}

export type OpenedFile = { db: Database; identity: FileIdentity; created: boolean }

export async function openStoreFile(file: string, options: { init: boolean; memoryLimit?: string; guard?: WriteGuard; now: number }): Promise<OpenedFile> {
  let created: boolean
  try {
    created = (await checkStoreFile(file, { init: options.init })) === 'create'
  } catch (error) {
    throw classified(file, error)
  }
  let db: Database
  try {
    db = await Database.open(file, { memoryLimit: options.memoryLimit, guard: options.guard })
  } catch (error) {
    throw classified(file, error)
  }
  const identity = identityOf(file)
  // Removed or replaced while it was being opened: what was opened is not the file at the path.
  if (identity === null || !sameFile(identity, identityOf(file))) {
    await db.close().catch(() => undefined)
    throw new StoreOpenError('unavailable', `${file} was removed or replaced while it was being opened`)
  }
  try {
    if (created || !(await readMarker(file))) await writeMarker(file, options.now)
  } catch (error) {
    await db.close().catch(() => undefined)
    throw new StoreOpenError('unavailable', `the marker beside ${file} cannot be written: ${(error as Error).message}`, { cause: error })
  }
  return { db, identity, created }
}

function classified(file: string, error: unknown): StoreOpenError {
  if (error instanceof StoreOpenError) return error
  if (error instanceof StoreMissingError) return new StoreOpenError('missing', error.message, { cause: error })
  const message = (error as Error).message.split('\n')[0]
  const type = duckdbErrorType(error)
  if (type === null) return new StoreOpenError('unavailable', `${file} cannot be opened: ${message}`, { cause: error })
  const holder = type === 'IO' ? lockHolder(file) : null
  if (holder !== null) return new StoreOpenError('locked', `${file} is locked by another process (pid ${holder}): another server, the admin command or a tool has it open`, { cause: error })
  if (!existsSync(file)) return new StoreOpenError('unavailable', `${file} cannot be created: ${message}`, { cause: error })
  return new StoreOpenError('unreadable', `${file} cannot be read as a store (damaged, truncated, not a DuckDB file, or not readable): ${message}`, { cause: error })
}
