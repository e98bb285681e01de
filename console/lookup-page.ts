// The lookup playground (/lookup): the form sent through the typed client with the key typed on
// the page (read when the form is sent, held nowhere else), the answer or the error as the server
// sent it, and the curl command that repeats the call.
import { consoleClient } from './console-client.ts'
import { curlCommand } from './curl-command.ts'
import { byId, h } from './dom.ts'
import { answerView } from './lookup-answer.ts'
import { followInputMode, lookupRequest } from './lookup-form.ts'
import { problemView } from './problem-view.ts'

const form = byId<HTMLFormElement>('lookup-form')
const result = byId('lookup-result')
const submit = byId<HTMLButtonElement>('lookup-submit')

followInputMode()

const keyInput = byId<HTMLInputElement>('api-key')
keyInput.addEventListener('input', () => {
  byId('usage-link').hidden = keyInput.value.trim() === ''
})

form.addEventListener('submit', (event) => {
  event.preventDefault()
  void lookUp()
})

async function lookUp(): Promise<void> {
  const { client, lastRequest } = consoleClient(byId<HTMLInputElement>('api-key').value.trim() || undefined)
  submit.disabled = true
  result.replaceChildren(h('p', { class: 'muted' }, 'Looking up…'))
  let shown: HTMLElement
  try {
    const { state, params } = lookupRequest()
    shown = answerView(await client.tax(state, params))
  } catch (error) {
    shown = problemView(error)
  } finally {
    submit.disabled = false
  }
  const sent = lastRequest()
  result.replaceChildren(shown, ...(sent ? [h('h3', {}, 'The same call with curl'), h('pre', { class: 'curl', 'data-part': 'curl' }, curlCommand(sent))] : []))
}
