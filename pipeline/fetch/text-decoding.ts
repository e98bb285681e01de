// Bytes → text for official source files. Strict UTF-8 first; Latin-1 place names (trap P11)
// fall back to windows-1252. A replacement character never reaches the parsers.
import { isUtf8 } from 'node:buffer'

const UTF8_BOM = [0xef, 0xbb, 0xbf]

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte)
}

/**
 * Decodes a whole source file, stripping a UTF-8 BOM; throws naming the file when it cannot be decoded
 * cleanly. With `rowsCheckDamage`, a U+FFFD already present in valid UTF-8 (damaged upstream) is left
 * for the row parser, which rejects just those rows.
 */
export function decodeText(bytes: Uint8Array, fileName: string, options: { rowsCheckDamage?: boolean } = {}): string {
  const body = bodyOf(bytes, fileName)
  let text: string
  try {
    // ignoreBOM keeps a second BOM (a BOM inside the data) visible instead of silently eating it.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body)
    if (options.rowsCheckDamage) return text
  } catch {
    text = new TextDecoder('windows-1252').decode(body)
  }
  const bad = text.indexOf('\uFFFD')
  if (bad >= 0) {
    const line = text.slice(0, bad).split('\n').length
    throw new Error(`${fileName}: replacement character U+FFFD at line ${line}; the file is damaged or mis-encoded`)
  }
  return text
}

/** The bytes after a UTF-8 BOM; a UTF-16 BOM is refused. */
function bodyOf(bytes: Uint8Array, fileName: string): Uint8Array {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    throw new Error(`${fileName}: UTF-16 byte-order mark found; only UTF-8 and windows-1252 are supported`)
  }
  return startsWith(bytes, UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes
}

/**
 * The lines of a file as `decodeText` would give them (split at `\n`), decoded one at a time: a
 * 380 MB boundary file is never also held as one string. The encoding is chosen for the whole file
 * (valid UTF-8, else windows-1252), and a replacement character throws naming its line.
 */
export function* decodeLines(bytes: Uint8Array, fileName: string): Generator<string> {
  const body = bodyOf(bytes, fileName)
  const decoder = new TextDecoder(isUtf8(body) ? 'utf-8' : 'windows-1252', { ignoreBOM: true })
  let start = 0
  for (let line = 1; start <= body.length; line++) {
    const end = body.indexOf(0x0a, start)
    const text = decoder.decode(body.subarray(start, end < 0 ? body.length : end))
    if (text.includes('\uFFFD')) throw new Error(`${fileName}: replacement character U+FFFD at line ${line}; the file is damaged or mis-encoded`)
    yield text
    if (end < 0) return
    start = end + 1
  }
}
