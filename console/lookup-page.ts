// The lookup playground (/lookup): the form sent through the typed client with the key typed on
// the page or kept by this tab (session-key.ts), the answer or the error as the server sent it,
// and the curl command that repeats the call.
import { consoleClient } from './console-client.ts'
import { curlCommand } from './curl-command.ts'
import { byId, h } from './dom.ts'
import { answerView } from './lookup-answer.ts'
import { followInputMode, lookupRequest } from './lookup-form.ts'
import { problemView } from './problem-view.ts'
import { sessionKey } from './session-key.ts'

const form = byId<HTMLFormElement>('lookup-form')
const result = byId('lookup-result')
const submit = byId<HTMLButtonElement>('lookup-submit')

followInputMode()

const key = sessionKey()
const showUsageLink = () => {
  byId('usage-link').hidden = key.value() === undefined
}
byId<HTMLInputElement>('api-key').addEventListener('input', showUsageLink)
showUsageLink()

form.addEventListener('submit', (event) => {
  event.preventDefault()
  void lookUp()
})

async function lookUp(): Promise<void> {
  const { client, lastRequest } = consoleClient(key.value())
  submit.disabled = true
  result.replaceChildren(h('p', { class: 'muted' }, 'Looking up…'))
  let shown: HTMLElement
  try {
    const { state, params } = lookupRequest()
    shown = answerView(await client.tax(state, params))
    key.settle()
  } catch (error) {
    key.settle(error)
    shown = problemView(error)
  } finally {
    submit.disabled = false
  }
  const sent = lastRequest()
  result.replaceChildren(shown, ...(sent ? [h('h3', {}, 'The same call with curl'), h('pre', { class: 'curl', 'data-part': 'curl' }, curlCommand(sent))] : []))
}
