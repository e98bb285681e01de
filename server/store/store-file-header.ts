// Whether the open DuckDB file is still sound at its path, which its device and inode alone
// cannot tell: `truncate -s 0`, an overwrite or a copy written over it in place keep them, while the
// server keeps acknowledging writes into a file a restart finds empty or older.
//
// A DuckDB file starts with three 4 KiB headers: the main one (a checksum, then the magic bytes
// "DUCK") and two database headers, each, after its checksum, holding its checkpoint's iteration
// and the count and size of the blocks that follow the headers. A checkpoint writes the header
// with the lower iteration, raising it past the other, so the higher of the two never goes down.
// The file is damaged in place when it is shorter than its headers, lacks the magic bytes, is
// shorter than the blocks its newest header counts, or its newest iteration went down (an older
// copy written over it).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

const HEADER_BYTES = 4096
const HEADERS_BYTES = 3 * HEADER_BYTES
const MAGIC = Buffer.from('DUCK')

type Header = { iteration: bigint; blocksEnd: bigint }

/** The newest database header of the file now, or what is wrong with it. */
function readHeader(file: string): Header | { damage: string } {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    if (size < HEADERS_BYTES) return { damage: `the store file is ${size} bytes, shorter than DuckDB's headers (truncated)` }
    const bytes = Buffer.alloc(HEADERS_BYTES)
    readSync(fd, bytes, 0, HEADERS_BYTES, 0)
    if (!bytes.subarray(8, 12).equals(MAGIC)) return { damage: 'the store file no longer starts with DuckDB\'s header (overwritten)' }
    const headers = [HEADER_BYTES, 2 * HEADER_BYTES].map((at) => ({
      iteration: bytes.readBigUInt64LE(at + 8),
      blocksEnd: BigInt(HEADERS_BYTES) + bytes.readBigUInt64LE(at + 32) * bytes.readBigUInt64LE(at + 40),
    }))
    const newest = headers[0].iteration >= headers[1].iteration ? headers[0] : headers[1]
    if (BigInt(size) < newest.blocksEnd) return { damage: `the store file is ${size} bytes, shorter than the ${newest.blocksEnd} its header counts (truncated)` }
    return newest
  } finally {
    closeSync(fd)
  }
}

/** Follows one open store file's header between writes. */
export class StoreFileHeader {
  #iteration = 0n

  constructor(private readonly file: string) {}

  /**
   * null when the file is sound, else why not; a missing file is for the identity check to tell.
   * Damage, or a newer iteration, counts only when a second read finds the same: a header DuckDB
   * is writing at that moment is not taken for either.
   */
  damage(): string | null {
    try {
      const first = readHeader(this.file)
      if (!('damage' in first) && first.iteration === this.#iteration) return null
      const again = readHeader(this.file)
      if ('damage' in again) return again.damage
      if (again.iteration < this.#iteration) return `the store file's checkpoint went back from ${this.#iteration} to ${again.iteration} (an older copy written over it)`
      if ('damage' in first || again.iteration === first.iteration) this.#iteration = again.iteration
      return null
    } catch {
      return null
    }
  }
}
