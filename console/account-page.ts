// The account page (/account): for the key typed on the page, or kept by this tab
// (session-key.ts: shown at once then), the plan and usage (GET /v1/account) and nexus health
// (GET /v1/portability/nexus/health).
import { consoleClient } from './console-client.ts'
import { byId } from './dom.ts'
import { nexusView } from './nexus-chart.ts'
import { problemView } from './problem-view.ts'
import { sessionKey } from './session-key.ts'
import { usageView } from './usage-view.ts'

const key = sessionKey()

const status = byId('account-status')
const usageSection = byId('account-usage')
const nexusSection = byId('account-nexus')

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault()
  void show()
})

async function show(): Promise<void> {
  const { client } = consoleClient(key.value())
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
    key.settle()
  } catch (error) {
    key.settle(error)
    status.replaceChildren(problemView(error))
  }
}

if (key.remembered) void show()
