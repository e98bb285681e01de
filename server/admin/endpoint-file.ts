// How the admin command finds a running server: the server writes `<store>.admin.json` (mode
// 0600: the token in it is the admin credential) with its loopback admin URL, and removes it
// on shutdown. A file left by a crashed server points at a closed port and is ignored.
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { z } from 'zod'

export const AdminEndpoint = z.object({ url: z.url(), token: z.string().min(32), pid: z.number().int() })
export type AdminEndpoint = z.infer<typeof AdminEndpoint>

export const endpointFilePath = (storePath: string) => `${storePath}.admin.json`

export async function writeEndpointFile(storePath: string, endpoint: AdminEndpoint): Promise<void> {
  const file = endpointFilePath(storePath)
  const temporary = `${file}.tmp-${process.pid}`
  await writeFile(temporary, `${JSON.stringify(endpoint)}\n`, { mode: 0o600 })
  await rename(temporary, file)
}

export async function readEndpointFile(storePath: string): Promise<AdminEndpoint | null> {
  const text = await readFile(endpointFilePath(storePath), 'utf8').catch(() => null)
  if (!text) return null
  try {
    const parsed = AdminEndpoint.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Removes the file only if it is still this process's (a newer server may have replaced it). */
export async function removeEndpointFile(storePath: string): Promise<void> {
  const current = await readEndpointFile(storePath)
  if (current?.pid === process.pid) await rm(endpointFilePath(storePath), { force: true })
}
