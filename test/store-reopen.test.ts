// Database.reopen on a real DuckDB file on a small tmpfs (the tests run as root): a CHECKPOINT the
// full disk refuses invalidates the database, as DuckDB's automatic one does once its log passes
// the threshold (reliability-store-invalidated.test.ts drives that through the server). Reopening
// keeps every committed row, fails while the disk is still full, sets the connection's TEMP tables
// up again, ends the imports on connections made on the old instance, and never touches a file
// that is not the one opened.
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HttpError } from '../server/base/errors.ts'
import { Database, REOPENED_MESSAGE, StoreWriteError } from '../server/store/database.ts'
import { fillerOf, leaveFree } from './support/disk-filler.ts'
import { makeTempDir } from './support/make-temp-dir.ts'

let tmp = ''
let disk = ''
beforeAll(async () => {
  tmp = await makeTempDir('store-reopen')
  await mkdir(path.join(tmp, 'disk'))
  await execa('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', path.join(tmp, 'disk')])
  disk = path.join(tmp, 'disk')
})
afterAll(async () => {
  if (disk) await execa('umount', [disk], { reject: false })
  if (tmp) await rm(tmp, { recursive: true, force: true })
})

const count = async (db: Database) => Number((await db.rows('SELECT count(*) AS n FROM accounts'))[0].n)
const insert = (db: Database, from: number, rows: number) =>
  db.run(`INSERT INTO accounts SELECT 'acct-' || i, repeat('n', 200) || i, 'starter', '2026-01-01', NULL FROM range(${from}, ${from + rows}) r(i)`)

/** Opens a store, writes rows to its log, and invalidates it with a checkpoint the full disk refuses. */
async function invalidated(file: string): Promise<Database> {
  const db = await Database.open(file)
  await insert(db, 0, 2_000)
  await db.run('CHECKPOINT')
  await insert(db, 2_000, 3_000)
  await leaveFree(disk, 0)
  const refused = await db.run('CHECKPOINT').catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(StoreWriteError)
  expect((refused as StoreWriteError).fault).toBe('invalidated')
  expect((refused as StoreWriteError).message).toMatch(/No space left on device/)
  return db
}

const own = () => {}

describe('reopening a store DuckDB invalidated', () => {
  it('keeps every committed row, fails while the disk is full, and serves again once it has room', async () => {
    const file = path.join(disk, 'kept', 'store.duckdb')
    const db = await invalidated(file)
    const other = await db.connectAgain()
    // Every statement fails, reads too, as the same fault.
    await expect(db.rows('SELECT 1')).rejects.toMatchObject({ fault: 'invalidated' })
    await expect(other.rows('SELECT 1')).rejects.toMatchObject({ fault: 'invalidated' })

    // The disk still full: the reopen's checkpoint fails, and the store stays closed.
    await expect(db.reopen(own)).rejects.toThrow(/checkpoint.*No space left on device/)
    await expect(db.rows('SELECT 1')).rejects.toMatchObject({ fault: 'invalidated' })

    await rm(fillerOf(disk))
    await db.reopen(own)
    expect(await count(db)).toBe(5_000)
    await insert(db, 5_000, 10)
    expect(await count(db)).toBe(5_010)
    // The connection made on the old instance is closed: its import is told to send again.
    const orphaned = await other.rows('SELECT 1').catch((error: unknown) => error)
    expect(orphaned).toBeInstanceOf(HttpError)
    expect((orphaned as HttpError).message).toBe(REOPENED_MESSAGE)
    await other.close()
    // The new connection is a connection of the file like the first: a new one works too.
    const again = await db.connectAgain()
    expect(Number((await again.rows('SELECT count(*) AS n FROM accounts'))[0].n)).toBe(5_010)
    await again.close()
    await db.close()

    const reopened = await Database.open(file)
    expect(await count(reopened)).toBe(5_010)
    await reopened.close()
  })

  it('sets the TEMP tables of the connection up again', async () => {
    const file = path.join(disk, 'session', 'store.duckdb')
    const db = await Database.open(file)
    await db.setUpSession(['CREATE TEMP TABLE IF NOT EXISTS stage (id VARCHAR)'])
    await insert(db, 0, 2_000)
    await db.run('CHECKPOINT')
    await insert(db, 2_000, 3_000)
    await leaveFree(disk, 0)
    await expect(db.run('CHECKPOINT')).rejects.toMatchObject({ fault: 'invalidated' })
    await rm(fillerOf(disk))
    await db.reopen(own)
    await db.run("INSERT INTO temp.main.stage VALUES ('x')")
    expect(await db.rows('SELECT id FROM temp.main.stage')).toEqual([{ id: 'x' }])
    await db.close()
  })

  it('never closes nor opens a file that is not the one opened: its log stays', async () => {
    const file = path.join(disk, 'moved', 'store.duckdb')
    const db = await invalidated(file)
    await rm(fillerOf(disk))
    await rename(file, `${file}.away`)
    const lost = new Error('the store file was removed from its path while open')
    await expect(db.reopen(() => {
      throw lost
    })).rejects.toBe(lost)
    await db.close()
    // Nothing was created at the path; the file and its log, moved back, hold every row.
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' })
    await rename(`${file}.away`, file)
    const back = await Database.open(file)
    expect(await count(back)).toBe(5_000)
    await back.close()
  })
})
