// Generated transactions for backfill tests and the bench: made on the fly from the real ZIPs of
// the snapshot, one NDJSON chunk at a time, so a million rows never sit in memory at once.

export type RowPlan = {
  rows: number
  /** [state, its ZIPs]; rows cycle through them */
  zips: [string, string[]][]
  /** first transaction date; row i is dated `days` back from it, cycling */
  today: string
  /** spread the rows over this many days before `today` (default 300) */
  days?: number
  /** transaction id prefix, so two plans do not collide */
  prefix?: string
}

const DAY_MS = 86_400_000

/** Row i of a plan, as an integration would send it (string amounts, a state name now and then). */
export function planRow(plan: RowPlan, i: number): Record<string, unknown> {
  const [state, zips] = plan.zips[i % plan.zips.length]
  const day = new Date(Date.parse(`${plan.today}T00:00:00Z`) - (i % (plan.days ?? 300)) * DAY_MS).toISOString().slice(0, 10)
  const cents = 1_000 + ((i * 7_919) % 50_000)
  return {
    transaction_id: `${plan.prefix ?? 'bf'}-${i}`,
    transaction_date: i % 2 ? `${day}T12:00:00Z` : day.replaceAll('-', '/'),
    to_country: 'US',
    to_zip: zips[i % zips.length],
    to_state: state,
    amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    shipping: '0',
    sales_tax: '0',
  }
}

/** The exact total of a plan's rows in one state, in 1/100 dollar (the plan only uses cents). */
/** Whole cents as the API's dollar string (`1234` → `12.34`). */
export const centsText = (cents: bigint): string => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`

export function planCents(plan: RowPlan, state: string, rows = plan.rows): bigint {
  let total = 0n
  for (let i = 0; i < rows; i++) if (plan.zips[i % plan.zips.length][0] === state) total += BigInt(1_000 + ((i * 7_919) % 50_000))
  return total
}

/** NDJSON bytes of a plan, in chunks of about 64 KiB. */
export async function* ndjsonOf(plan: RowPlan, rowOf: (i: number) => unknown = (i) => planRow(plan, i)): AsyncGenerator<Uint8Array> {
  let chunk = ''
  for (let i = 0; i < plan.rows; i++) {
    chunk += `${JSON.stringify(rowOf(i))}\n`
    if (chunk.length >= 65_536) {
      yield Buffer.from(chunk)
      chunk = ''
    }
  }
  if (chunk) yield Buffer.from(chunk)
}

/** POSTs an NDJSON stream to the backfill endpoint. */
export function postNdjson(url: string, key: string, body: AsyncIterable<Uint8Array>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v1/portability/transactions/backfill`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/x-ndjson', ...headers },
    body: body as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit)
}
