// How the admin command finds a running server: the server writes an endpoint file (mode 0600:
// the token in it is the admin credential) with its loopback admin URL, and removes it on
// shutdown. By default it is `<store>.admin.json` beside a DuckDB store; TAXATLAS_ADMIN_ENDPOINT_FILE
// names it otherwise (a PostgreSQL store has no file to put it beside). A file left by a crashed
// server points at a closed port and is ignored.
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import * as z from 'zod'

export const AdminEndpoint = z.object({ url: z.url(), token: z.string().min(32), pid: z.number().int() })
export type AdminEndpoint = z.infer<typeof AdminEndpoint>

/** The default endpoint file of a DuckDB store. */
export const endpointFilePath = (storePath: string) => `${storePath}.admin.json`

export async function writeEndpointAt(file: string, endpoint: AdminEndpoint): Promise<void> {
  const temporary = `${file}.tmp-${process.pid}`
  await writeFile(temporary, `${JSON.stringify(endpoint)}\n`, { mode: 0o600 })
  await rename(temporary, file)
}

export async function readEndpointAt(file: string): Promise<AdminEndpoint | null> {
  const text = await readFile(file, 'utf8').catch(() => null)
  if (!text) return null
  try {
    const parsed = AdminEndpoint.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The endpoint of the server on a DuckDB store, by the store's path. */
export const readEndpointFile = (storePath: string) => readEndpointAt(endpointFilePath(storePath))

/** Removes the file only if it is still this process's (a newer server may have replaced it). */
export async function removeEndpointAt(file: string): Promise<void> {
  const current = await readEndpointAt(file)
  if (current?.pid === process.pid) await rm(file, { force: true })
}
