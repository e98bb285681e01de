// Where the read-only reference data lives for tests and CI: `../shared` beside the project.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const SHARED = process.env.TAXATLAS_SHARED ?? path.resolve(PROJECT_ROOT, '../shared')

if (!existsSync(SHARED)) throw new Error(`reference data not found at ${SHARED} (set TAXATLAS_SHARED)`)

export const sharedPath = (...parts: string[]) => path.join(SHARED, ...parts)
