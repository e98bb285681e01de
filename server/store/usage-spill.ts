// Usage counts a shutdown could not write to the store (it was unreachable for the whole grace
// period), kept in a local file and added back at the next start. The file is replaced whole
// (written beside it, synced, renamed), so a crash while writing leaves the previous one, and it is
// removed only once a flush holding its counts has been committed.
import { open, readFile, rename, rm } from 'node:fs/promises'
import * as z from 'zod'
import type { UsageRow } from './store-engine.ts'

const SpillFile = z.object({
  rows: z.array(z.object({ accountId: z.string().min(1), month: z.string().regex(/^\d{4}-\d{2}$/), lookups: z.number().int() })),
})

/** The default spill file of a DuckDB store: beside it. */
export function spillPathOf(storeFile: string): string {
  return `${storeFile}.usage-spill.json`
}

export async function writeUsageSpill(file: string, rows: UsageRow[]): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`
  const handle = await open(temporary, 'w', 0o600)
  try {
    await handle.writeFile(`${JSON.stringify(SpillFile.parse({ rows }))}\n`)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temporary, file)
}

/** The spilled counts; none when there is no file. A file that cannot be parsed is an error, not nothing. */
export async function readUsageSpill(file: string): Promise<UsageRow[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`usage spill file ${file} is not JSON: ${(error as Error).message}`)
  }
  const parsed = SpillFile.safeParse(json)
  if (!parsed.success) throw new Error(`usage spill file ${file} is not valid: ${parsed.error.issues[0]?.message}`)
  return parsed.data.rows
}

export function removeUsageSpill(file: string): Promise<void> {
  return rm(file, { force: true })
}
