// The manual-drop directory (TAXATLAS_DROPS): Avalara ZIP5 tables laid out as
// `<edition>/TAXRATES_ZIP5_<ST><YYYYMM>.csv`, every edition held for a state, read and parsed.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { heldDrops, parseAvalaraZip5, type AvalaraDrop, type AvalaraZip5File } from './feeds/avalara-zip5.ts'
import { sha256Hex } from '../snapshot-contract/file-bytes.ts'
import type { RawFile } from '../snapshot-contract/model.ts'
import { decodeText } from './text-decoding.ts'

export type ReadDrop = { parsed: AvalaraZip5File; raw: RawFile }

/** Every file below a directory, as paths relative to it (none when it does not exist). */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? (entry as { path: string }).path, entry.name)))
}

/** The editions held for a state, oldest first. */
export const dropsOfState = async (state: string, dropsDir: string): Promise<AvalaraDrop[]> => heldDrops(await listFiles(dropsDir), state)

export async function readDrop(drop: AvalaraDrop, dropsDir: string): Promise<ReadDrop> {
  const file = path.join(dropsDir, drop.path)
  const bytes = await readFile(file)
  const fileName = path.basename(file)
  const parsed = parseAvalaraZip5(decodeText(bytes, fileName, { rowsCheckDamage: true }), fileName)
  return { parsed, raw: { url: `file://${file}`, name: fileName, sha256: sha256Hex(bytes), size: bytes.length } }
}

/** The newest manual drop of the state's Avalara ZIP5 table, parsed; undefined when there is none. */
export async function readNewestDrop(state: string, dropsDir: string): Promise<ReadDrop | undefined> {
  const newest = (await dropsOfState(state, dropsDir)).at(-1)
  return newest ? readDrop(newest, dropsDir) : undefined
}
