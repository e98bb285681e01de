// Splits a byte stream into lines without holding more than one line (plus one chunk) in memory.
// A line longer than the limit is skipped to its end and reported, so one runaway line cannot
// exhaust memory. Splitting on the byte 0x0A is safe for UTF-8: it never occurs inside a character.
// The lines come a chunk at a time (those the chunk completes): one step of the async iteration
// per chunk rather than per line, which a million-row stream would otherwise spend more on than on
// splitting.

export type NdjsonLine = { number: number; text: string } | { number: number; tooLong: true }

const NEWLINE = 0x0a

export async function* ndjsonLines(stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, maxLineBytes: number): AsyncGenerator<NdjsonLine[]> {
  let number = 0
  let pending: Buffer[] = []
  let pendingBytes = 0
  let skipping = false
  const line = (buffer: Buffer, start: number, end: number): NdjsonLine => {
    number++
    const tooLong = skipping || pendingBytes + end - start > maxLineBytes
    const text = tooLong ? '' : pending.length ? Buffer.concat([...pending, buffer.subarray(start, end)]).toString('utf8') : buffer.toString('utf8', start, end)
    pending = []
    pendingBytes = 0
    skipping = false
    return tooLong ? { number, tooLong: true } : { number, text }
  }
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    const lines: NdjsonLine[] = []
    let start = 0
    for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      lines.push(line(buffer, start, end))
      start = end + 1
    }
    if (start < buffer.length && !skipping) {
      pendingBytes += buffer.length - start
      if (pendingBytes > maxLineBytes) {
        skipping = true
        pending = []
      } else {
        pending.push(buffer.subarray(start))
      }
    }
    if (lines.length) yield lines
  }
  if (pendingBytes > 0 || skipping) yield [line(Buffer.alloc(0), 0, 0)]
}
