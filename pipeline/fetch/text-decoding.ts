// Bytes → text for official source files. Strict UTF-8 first; Latin-1 place names (trap P11)
// fall back to windows-1252. A replacement character never reaches a parser as data: a whole text
// that holds one is refused, a line that holds one is set aside by its row reader. A text too large
// to decode safely is refused before it is decoded (input-limits.ts).
import { isUtf8 } from 'node:buffer'
import { assertWithin, INPUT_LIMITS } from './input-limits.ts'

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
  assertWithin(fileName, bytes.length, INPUT_LIMITS.textBytes, 'a file decoded whole')
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

/** The chunks of a file, the first ones joined until they are long enough to hold a BOM, which `bodyOf` handles. */
function* bodyChunks(input: Iterable<Uint8Array>, fileName: string): Generator<Uint8Array> {
  let head: Uint8Array | null = new Uint8Array(0)
  for (const chunk of input) {
    if (head === null) yield chunk
    else if ((head = head.length === 0 ? chunk : Buffer.concat([head, chunk])).length >= UTF8_BOM.length) {
      yield bodyOf(head, fileName)
      head = null
    }
  }
  if (head !== null) yield bodyOf(head, fileName)
}

/** The bytes after a UTF-8 BOM; a UTF-16 BOM is refused. */
function bodyOf(bytes: Uint8Array, fileName: string): Uint8Array {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    throw new Error(`${fileName}: UTF-16 byte-order mark found; only UTF-8 and windows-1252 are supported`)
  }
  return startsWith(bytes, UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes
}

/** A line longer than INPUT_LIMITS.lineBytes, left undecoded: its reader sets it aside as a row it cannot read. */
export class OverlongLine {
  constructor(readonly bytes: number) {}
}

/**
 * The lines of a file (split at `\n`), from its bytes whole or a chunk at a time (an archive member
 * inflated as it is read), each decoded on its own: a 380 MB boundary file is never held as one
 * string, nor whole in memory when it comes out of an archive. A line is read as UTF-8 when it is
 * valid UTF-8, else as windows-1252 (a Latin-1 place name is never valid UTF-8); a U+FFFD already
 * in valid UTF-8 stays for the row reader, which sets that row aside. A line longer than
 * `maxLineBytes` is not decoded: it comes as an `OverlongLine`. A UTF-8 BOM is stripped, a UTF-16 one refused.
 */
export function* decodeLines(input: Uint8Array | Iterable<Uint8Array>, fileName: string, maxLineBytes: number = INPUT_LIMITS.lineBytes): Generator<string | OverlongLine> {
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })
  const cp1252 = new TextDecoder('windows-1252')
  const decode = (bytes: Uint8Array) => (isUtf8(bytes) ? utf8 : cp1252).decode(bytes)
  let parts: Uint8Array[] = []
  let pending = 0
  for (const chunk of bodyChunks(input instanceof Uint8Array ? [input] : input, fileName)) {
    let start = 0
    for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, start)) {
      const tail = chunk.subarray(start, end)
      if (pending + tail.length > maxLineBytes) yield new OverlongLine(pending + tail.length)
      else yield decode(parts.length === 0 ? tail : Buffer.concat([...parts, tail]))
      parts = []
      pending = 0
      start = end + 1
    }
    const rest = chunk.subarray(start)
    pending += rest.length
    // An overlong line is only counted from here on: its bytes are not kept.
    if (pending <= maxLineBytes && rest.length > 0) parts.push(rest.slice())
    else parts = []
  }
  if (pending > maxLineBytes) yield new OverlongLine(pending)
  else yield decode(parts.length === 1 ? parts[0]! : Buffer.concat(parts))
}
