// A boundary file of the size real ones reach (E8: Oklahoma's 1,130,033 rows in 163.5 MB, 777,875
// of them `A` rows; Iowa's 2.2 M), in the documented layout (publisher-evidence.md A.6, 29 fixed
// fields and 20 district triplets), zipped as SST ships most of them. It binds each ZIP of a state
// the way a snapshot already answers it (each candidate's county and place, its share of the ZIP as
// its share of the +4 codes), so the state's ZIP answers stay what they were and its anchors hold,
// while the refresh reads every row.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { Zip, ZipDeflate } from 'fflate'
import type { ZipEntry } from '../../snapshot-contract/rate-index.ts'

/** Row mix of Oklahoma's file (E8): about 69% `A` rows, 31% `4` rows, a few `Z` rows. */
const ADDRESS_SHARE = 0.69
const TRIPLETS = 20
const PLUS4_SPACE = 10_000
const STREETS = ['MAIN', 'OAK', 'PINE', 'MAPLE', 'CEDAR', 'ELM', 'WASHINGTON', 'LAKE', 'HILL', 'PARK', 'CHURCH', 'MILL', 'RIVER', 'SPRING', 'RIDGE', 'FOREST']
const SUFFIXES = ['ST', 'AVE', 'RD', 'DR', 'LN', 'CT', 'WAY', 'BLVD']
const DIRECTIONS = ['', 'N', 'S', 'E', 'W']

/**
 * One line in the layout: `fixed` fills the 29 fixed fields by 0-based index, the triplets stay blank
 * (a state whose districts the rate file binds by county, such as GA, has none on its rows).
 */
function line(fixed: Record<number, string>): string {
  const fields = Array.from({ length: 29 + TRIPLETS * 3 }, (_, i) => fixed[i] ?? '')
  return fields.join(',')
}

type Binding = { county: string; place: string }

/** The candidate a point in [0, 1) of the ZIP falls in, by the candidates' weights. */
function bindingAt(entry: ZipEntry, at: number): Binding {
  const total = entry.candidates.reduce((sum, c) => sum + c.weight, 0)
  let reach = 0
  for (const candidate of entry.candidates) {
    reach += candidate.weight / total
    if (at < reach) return { county: candidate.county?.fips.slice(2) ?? '', place: candidate.place?.geoid.slice(2) ?? '' }
  }
  const last = entry.candidates.at(-1)!
  return { county: last.county?.fips.slice(2) ?? '', place: last.place?.geoid.slice(2) ?? '' }
}

/**
 * The rows for `entries` (a state's ZIPs as a snapshot answers them), about `rows` of them, all in
 * force from 2025-01-01 on, then `extra` lines as given (a fault to carry along).
 */
export function* synthesizedBoundaryLines(entries: ZipEntry[], stateFips: string, rows: number, extra: readonly string[] = []): Generator<string> {
  const zips = entries.filter((entry) => !entry.unlisted && entry.candidates.length > 0)
  const perZip = Math.ceil(rows / zips.length)
  const fours = Math.max(1, Math.round((perZip - 1) * (1 - ADDRESS_SHARE)))
  const addresses = perZip - 1 - fours
  const common = (binding: Binding) => ({ 1: '20250101', 2: '29991231', 22: stateFips, 23: '1', 24: binding.county, 25: binding.place })
  let n = 0
  for (const entry of zips) {
    // the ZIP's default, for the +4s no 4 row lists (SST's order 4 > Z): its first candidate
    yield line({ 0: 'Z', 17: entry.zip, 19: entry.zip, ...common(bindingAt(entry, 0)) })
    for (let k = 0; k < fours; k++) {
      const low = Math.floor((k * PLUS4_SPACE) / fours)
      const high = Math.floor(((k + 1) * PLUS4_SPACE) / fours) - 1
      yield line({ 0: '4', 17: entry.zip, 18: String(low).padStart(4, '0'), 19: entry.zip, 20: String(high).padStart(4, '0'), ...common(bindingAt(entry, (low + high + 1) / 2 / PLUS4_SPACE)) })
    }
    for (let k = 0; k < addresses; k++, n++) {
      const street = STREETS[n % STREETS.length]! + (n % 7 === 0 ? '' : ` ${Math.floor(n / STREETS.length) % 97}`)
      const house = 100 * (1 + (k % 40))
      yield line({
        0: 'A',
        3: String(house),
        4: String(house + 98),
        5: k % 3 === 0 ? 'B' : k % 3 === 1 ? 'O' : 'E',
        6: DIRECTIONS[n % DIRECTIONS.length]!,
        7: street,
        8: SUFFIXES[n % SUFFIXES.length]!,
        15: entry.zip,
        16: String((n * 37) % PLUS4_SPACE).padStart(4, '0'),
        ...common(bindingAt(entry, (k + 0.5) / addresses)),
      })
    }
  }
  yield* extra
}

/** Writes `lines` as the one member `member` of a ZIP archive at `file`, a block at a time; the member's size in bytes. */
export async function writeZippedLines(file: string, member: string, lines: Iterable<string>): Promise<number> {
  const out = createWriteStream(file)
  const zip = new Zip((error, chunk) => {
    if (error) out.destroy(error)
    else out.write(chunk)
  })
  const deflate = new ZipDeflate(member, { level: 6 })
  zip.add(deflate)
  let bytes = 0
  let block: string[] = []
  const flush = (final: boolean) => {
    const data = Buffer.from(block.length > 0 ? `${block.join('\n')}\n` : '')
    bytes += data.length
    deflate.push(data, final)
    block = []
  }
  for (const text of lines) {
    block.push(text)
    if (block.length === 10_000) flush(false)
  }
  flush(true)
  zip.end()
  out.end()
  await once(out, 'close')
  return bytes
}
