// The manual-drop directory (TAXATLAS_DROPS): Avalara ZIP5 tables laid out as
// `<edition>/TAXRATES_ZIP5_<ST><YYYYMM>.csv`, every edition held for a state, read and parsed.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { heldDrops, parseAvalaraZip5, type AvalaraDrop, type AvalaraZip5File } from './aggregator-drop.ts'
import { sha256Hex } from '../../snapshot-contract/file-bytes.ts'
import type { RawFile } from '../../snapshot-contract/model.ts'
import { localFileUrl } from '../fetch/local-source-names.ts'
import { decodeText } from '../fetch/text-decoding.ts'

/** A manual drop file read from the drop directory. */
export type DropFile = { raw: RawFile; bytes: Buffer }

/** Every file below a directory, as paths relative to it (none when it does not exist). */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? (entry as { path: string }).path, entry.name)))
}

/** The editions held for a state, oldest first. */
export const dropsOfState = async (state: string, dropsDir: string): Promise<AvalaraDrop[]> => heldDrops(await listFiles(dropsDir), state)

export async function readDrop(drop: AvalaraDrop, dropsDir: string): Promise<DropFile> {
  const bytes = await readFile(path.join(dropsDir, drop.path)).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read manual drop ${drop.path} (${error.code ?? error.message})`)
  })
  return { bytes, raw: { url: localFileUrl('manual-drops', drop.path), name: path.basename(drop.path), sha256: sha256Hex(bytes), size: bytes.length } }
}

/** The newest manual drop of the state's Avalara ZIP5 table; undefined when there is none. */
export async function readNewestDrop(state: string, dropsDir: string): Promise<DropFile | undefined> {
  const newest = (await dropsOfState(state, dropsDir)).at(-1)
  return newest ? readDrop(newest, dropsDir) : undefined
}

export const parseDrop = (drop: DropFile): AvalaraZip5File => parseAvalaraZip5(decodeText(drop.bytes, drop.raw.name, { rowsCheckDamage: true }), drop.raw.name)
