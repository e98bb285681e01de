// The soak's store phase: while lookups run under load, the store file is taken from the server for
// a few seconds — moved away from its path and back, as a volume unmounted and mounted again or
// an operator's mistaken `mv` would do (a running server holds DuckDB's lock on its file, so no
// other process can lock it meanwhile; a lock at start-up is tested in reliability-store.test.ts).
// A writer sends an order every 100 ms throughout: every write while the file is away must be
// refused with 503 (nothing acknowledged that would be lost), and writes must be accepted again
// on their own once it is back.
import { rename } from 'node:fs/promises'

export type StoreOutageReport = {
  seconds: number
  /** writes acknowledged (2xx) while the file was away: must be none */
  acknowledgedWhileAway: number
  /** statuses and error codes of the writes while the file was away */
  whileAway: Record<string, number>
  /** seconds from the file's return to the first write accepted again; null: never within 30 s */
  recoveredAfterS: number | null
  /** writes before the outage that were not accepted: must be none */
  refusedBefore: number
}

export async function storeOutage(options: { url: string; key: string; storePath: string; seconds: number; zip: string; state: string }): Promise<StoreOutageReport> {
  let n = 0
  const write = async () => {
    const response = await fetch(`${options.url}/v1/portability/orders`, {
      method: 'POST',
      headers: { 'X-API-Key': options.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ transaction_id: `soak-outage-${process.pid}-${n++}`, transaction_date: new Date().toISOString().slice(0, 10), to_zip: options.zip, to_state: options.state, amount: '10.00' }),
    }).catch(() => null)
    if (!response) return 'error'
    const text = await response.text()
    return response.status < 300 ? String(response.status) : `${response.status} ${(JSON.parse(text) as { error?: { code?: string } }).error?.code ?? ''}`.trim()
  }
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  let refusedBefore = 0
  for (let i = 0; i < 5; i++) if (!(await write()).startsWith('2')) refusedBefore++

  const away = `${options.storePath}.soak-away`
  await rename(options.storePath, away)
  const whileAway: Record<string, number> = {}
  const until = performance.now() + options.seconds * 1000
  while (performance.now() < until) {
    const outcome = await write()
    whileAway[outcome] = (whileAway[outcome] ?? 0) + 1
    await sleep(100)
  }
  await rename(away, options.storePath)
  const back = performance.now()
  let recoveredAfterS: number | null = null
  while (recoveredAfterS === null && performance.now() - back < 30_000) {
    if ((await write()).startsWith('2')) recoveredAfterS = (performance.now() - back) / 1000
    else await sleep(100)
  }
  const acknowledgedWhileAway = Object.entries(whileAway).filter(([outcome]) => outcome.startsWith('2')).reduce((sum, [, count]) => sum + count, 0)
  return { seconds: options.seconds, acknowledgedWhileAway, whileAway, recoveredAfterS, refusedBefore }
}
