// The returns page (/returns): for the key typed on the page or kept by this tab (session-key.ts), the
// account's sales-tax return of a state and period (GET /v1/portability/returns), shown as a table,
// and the same return downloaded as the API's CSV file.
import { consoleClient } from './console-client.ts'
import { byId, h } from './dom.ts'
import { problemView } from './problem-view.ts'
import { returnView } from './returns-view.ts'
import { sessionKey } from './session-key.ts'

const status = byId('returns-status')
const result = byId('returns-result')
const submit = byId<HTMLButtonElement>('returns-submit')
const download = byId<HTMLButtonElement>('returns-csv')
const key = sessionKey()

byId<HTMLFormElement>('returns-form').addEventListener('submit', (event) => {
  event.preventDefault()
  void show()
})
download.addEventListener('click', () => void downloadCsv())

/** The calendar quarter before today's (UTC): its first and last days. */
function lastQuarter(): { from: string; to: string } {
  const now = new Date()
  const start = new Date(Date.UTC(now.getUTCFullYear(), Math.floor(now.getUTCMonth() / 3) * 3 - 3, 1))
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 3, 0))
  return { from: start.toISOString().slice(0, 10), to: end.toISOString().slice(0, 10) }
}

function asked() {
  const quarter = lastQuarter()
  return {
    client: consoleClient(key.value()).client,
    params: {
      state: byId<HTMLInputElement>('returns-state').value.trim(),
      from: byId<HTMLInputElement>('returns-from').value.trim() || quarter.from,
      to: byId<HTMLInputElement>('returns-to').value.trim() || quarter.to,
    },
  }
}

async function busy(work: () => Promise<void>): Promise<void> {
  submit.disabled = download.disabled = true
  try {
    await work()
    key.settle()
  } catch (error) {
    key.settle(error)
    status.replaceChildren(problemView(error))
  } finally {
    submit.disabled = download.disabled = false
  }
}

const show = () =>
  busy(async () => {
    const { client, params } = asked()
    status.replaceChildren('Loading…')
    result.replaceChildren()
    const ret = await client.salesTaxReturn(params)
    const { totals } = ret
    status.replaceChildren(
      h(
        'span',
        { 'data-field': 'summary' },
        `${ret.name}, ${ret.period.from} to ${ret.period.to}: ${totals.transactions.toLocaleString('en-US')} transactions, tax due ${totals.tax_due}, collected ${totals.tax_collected}, difference ${totals.difference}. Snapshot ${ret.snapshot}.`,
      ),
    )
    result.replaceChildren(returnView(ret))
  })

const downloadCsv = () =>
  busy(async () => {
    const { client, params } = asked()
    const csv = await client.salesTaxReturnCsv(params)
    const link = h('a', { href: URL.createObjectURL(new Blob([csv], { type: 'text/csv' })), download: `taxatlas-return-${params.state.toUpperCase()}-${params.from}-${params.to}.csv` })
    link.click()
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
  })
