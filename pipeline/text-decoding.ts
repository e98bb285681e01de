// Bytes → text for official source files. Strict UTF-8 first; Latin-1 place names (pitfall P11)
// fall back to windows-1252. A replacement character never reaches the parsers.

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
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    throw new Error(`${fileName}: UTF-16 byte-order mark found; only UTF-8 and windows-1252 are supported`)
  }
  const body = startsWith(bytes, UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes
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
