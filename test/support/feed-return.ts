// A feed's files refreshed by the real pipeline into a snapshot of the state's own, and a return
// asked of it: for the feeds' tests of what a return names (the filing codes). Each refresh
// publishes a snapshot from what the mirror then holds, so a later edition leaves the earlier one
// answering the dates before it; the return comes from a real server over those artifacts, its
// sales posted through the API.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { expect } from 'vitest'
import { pipelineSettings, runRefresh } from './refresh-run.ts'
import { manualClock, startTestServer } from './server-harness.ts'
import { tempDir } from './temp-dirs.ts'

/** A mirror and an artifacts directory for `state` alone; `refreshWith` writes files (path in the mirror → content) and runs a refresh at `now`. */
export async function feedRefreshBed(state: string) {
  const label = state.toLowerCase()
  const mirror = await tempDir(`${label}-mirror`)
  const artifacts = await tempDir(`${label}-artifacts`)
  const refreshWith = async (files: Record<string, string | Uint8Array>, now: string) => {
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(mirror, name)), { recursive: true })
      await writeFile(path.join(mirror, name), content)
    }
    return runRefresh(pipelineSettings({ mirror, artifacts, build: await tempDir(`${label}-build`), states: state, drops: await tempDir(`${label}-no-drops`), now }))
  }
  return { artifacts, refreshWith }
}

/** A sale of 100.00 to a ZIP (and a city, where the ZIP spans places) on a date. */
export type ReturnSale = { id: string; date: string; zip: string; city?: string }

/** A return row as the feeds' tests compare it. */
export type ReturnRowSeen = { level: string; code: string; name: string | null; rate: string; transactions: number; filing_code: { code: string; system: string } | null }

/** The rows of `state`'s return for `from`…`to` of an account whose only transactions are `sales`, from a server over `artifacts` at `now`. */
export async function returnRowsOf(artifacts: string, now: string, state: string, sales: ReturnSale[], from: string, to: string): Promise<ReturnRowSeen[]> {
  const server = await startTestServer({ artifactsDir: artifacts, clock: manualClock(now) })
  try {
    const key = (await server.createAccount('enterprise', `${state} return`)).api_key
    for (const { id, date, zip, city } of sales) {
      const order = { transaction_id: id, transaction_date: date, to_country: 'US', to_zip: zip, ...(city ? { to_city: city } : {}), to_state: state, amount: '100.00', shipping: '0', sales_tax: '8.00' }
      const posted = await fetch(`${server.url}/v1/portability/orders`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(order) })
      expect(posted.status, await posted.text()).toBe(201)
    }
    const response = await fetch(`${server.url}/v1/portability/returns?state=${state}&from=${from}&to=${to}`, { headers: { 'X-API-Key': key } })
    const body = await response.json()
    expect(response.status, JSON.stringify(body)).toBe(200)
    return body.rows.map((row: { jurisdiction: { level: string; code: string; name: string | null }; rate: string; transactions: number; filing_code: ReturnRowSeen['filing_code'] }) => ({
      ...row.jurisdiction,
      rate: row.rate,
      transactions: row.transactions,
      filing_code: row.filing_code,
    }))
  } finally {
    await server.close()
  }
}
