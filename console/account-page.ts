// The account page (/account): for the key typed on the page (held in this call only), the plan
// and usage (GET /v1/account) and nexus health (GET /v1/portability/nexus/health).
import { consoleClient } from './console-client.ts'
import { byId } from './dom.ts'
import { nexusView } from './nexus-chart.ts'
import { problemView } from './problem-view.ts'
import { usageView } from './usage-view.ts'

const status = byId('account-status')
const usageSection = byId('account-usage')
const nexusSection = byId('account-nexus')

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault()
  void show()
})

async function show(): Promise<void> {
  const { client } = consoleClient(byId<HTMLInputElement>('api-key').value.trim() || undefined)
  status.replaceChildren('Loading…')
  usageSection.hidden = true
  nexusSection.hidden = true
  try {
    const [account, health] = await Promise.all([client.account(), client.nexusHealth()])
    byId('usage').replaceChildren(usageView(account))
    byId('nexus').replaceChildren(nexusView(health))
    usageSection.hidden = false
    nexusSection.hidden = false
    status.replaceChildren(`Account ${account.account_id}, as of ${health.as_of}.`)
  } catch (error) {
    status.replaceChildren(problemView(error))
  }
}
