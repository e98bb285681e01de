// How large an input may be before it is read. One refresh process reads every state's files: a
// hostile or broken one (a 1 GB junk CSV, a ZIP that inflates a thousandfold) must fail its own
// state with a clear note, never exhaust the process (V8 cannot hold a string past ~512 MiB: a
// larger decode aborts the process, not the state). The largest real inputs, SST boundary files
// (E8: Oklahoma 163.5 MB, Iowa 2.2 M rows), sit well inside these; docs/reliability.md lists them.
const MiB = 1024 * 1024

export const INPUT_LIMITS = {
  /** a download, a file of a mirror directory, a manual drop: refused past this before it is read */
  fileBytes: 512 * MiB,
  /** a file or archive member decoded as one text (rate files, drops, workbooks' parts, Census tables) */
  textBytes: 256 * MiB,
  /** an archive member read line by line, never held whole (SST boundary files) */
  streamedBytes: 1024 * MiB,
  /** inflated bytes per compressed byte of an archive member, checked once it passes `ratioFromBytes` (real files: 10–30) */
  inflateRatio: 200,
  ratioFromBytes: 64 * MiB,
  /** one line of a file read line by line (a boundary row is a few hundred bytes): longer is a rejected row */
  lineBytes: 64 * 1024,
} as const

/** `12.3 MiB` */
export const inMiB = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`

/** Throws, naming the file, when `bytes` bytes pass `limit` for `what` ("a file decoded whole"). */
export function assertWithin(fileName: string, bytes: number, limit: number, what: string): void {
  if (bytes > limit) throw new Error(`${fileName}: ${inMiB(bytes)}, over the ${inMiB(limit)} ${what} may have (docs/reliability.md, input limits): refused before it is read`)
}
