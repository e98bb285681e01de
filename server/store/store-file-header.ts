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
//
// The header is read before every write, so the file is read through one descriptor held open on
// the file opened (the identity check has just found that file at the path), not opened anew.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { sameFile, type FileIdentity } from './file-identity.ts'

const HEADER_BYTES = 4096
const HEADERS_BYTES = 3 * HEADER_BYTES
const MAGIC = Buffer.from('DUCK')

type Header = { iteration: bigint; blocksEnd: bigint }

/** The newest database header of the file open as `fd`, or what is wrong with it. */
function readHeader(fd: number, bytes: Buffer): Header | { damage: string } {
  const size = fstatSync(fd).size
  if (size < HEADERS_BYTES) return { damage: `the store file is ${size} bytes, shorter than DuckDB's headers (truncated)` }
  readSync(fd, bytes, 0, HEADERS_BYTES, 0)
  if (!bytes.subarray(8, 12).equals(MAGIC)) return { damage: 'the store file no longer starts with DuckDB\'s header (overwritten)' }
  const headers = [HEADER_BYTES, 2 * HEADER_BYTES].map((at) => ({
    iteration: bytes.readBigUInt64LE(at + 8),
    blocksEnd: BigInt(HEADERS_BYTES) + bytes.readBigUInt64LE(at + 32) * bytes.readBigUInt64LE(at + 40),
  }))
  const newest = headers[0].iteration >= headers[1].iteration ? headers[0] : headers[1]
  if (BigInt(size) < newest.blocksEnd) return { damage: `the store file is ${size} bytes, shorter than the ${newest.blocksEnd} its header counts (truncated)` }
  return newest
}

/** Follows one open store file's header between writes. */
export class StoreFileHeader {
  #iteration = 0n
  #fd: number | null = null
  #closed = false
  readonly #bytes = Buffer.alloc(HEADERS_BYTES)

  constructor(
    private readonly file: string,
    private readonly opened: FileIdentity,
  ) {}

  /**
   * null when the file is sound, else why not; a missing file is for the identity check to tell.
   * Damage, or a newer iteration, counts only when a second read finds the same: a header DuckDB
   * is writing at that moment is not taken for either.
   */
  damage(): string | null {
    let fd: number | null = null
    try {
      fd = this.#descriptor()
      if (fd === null) return null
      const first = readHeader(fd, this.#bytes)
      if (!('damage' in first) && first.iteration === this.#iteration) return null
      const again = readHeader(fd, this.#bytes)
      if ('damage' in again) return again.damage
      if (again.iteration < this.#iteration) return `the store file's checkpoint went back from ${this.#iteration} to ${again.iteration} (an older copy written over it)`
      if ('damage' in first || again.iteration === first.iteration) this.#iteration = again.iteration
      return null
    } catch {
      return null
    } finally {
      if (this.#closed && fd !== null) closeSync(fd)
    }
  }

  /** Closes the descriptor held; a check after it (a shutdown's last writes) opens the file for its reads. */
  close(): void {
    this.#closed = true
    if (this.#fd !== null) closeSync(this.#fd)
    this.#fd = null
  }

  /** The descriptor on the file opened, opened at the path once the file there is that one. */
  #descriptor(): number | null {
    if (this.#fd !== null) return this.#fd
    const fd = openSync(this.file, 'r')
    const { dev, ino } = fstatSync(fd)
    if (sameFile({ dev, ino }, this.opened)) {
      if (!this.#closed) this.#fd = fd
      return fd
    }
    closeSync(fd)
    return null
  }
}
