// The changes page (/changes): for the key typed on the page or kept by this tab (session-key.ts),
// every rate change of the states asked (or the account's nexus states, the API's default)
// effective on or after the date given (today by default), all pages of GET /v1/changes, by
// effective date, each with the account's exposure to it (impact=true).
import type { RateChangesResponse } from '../client/index.ts'
import { changesTable } from './changes-view.ts'
import { consoleClient } from './console-client.ts'
import { byId, h } from './dom.ts'
import { problemView } from './problem-view.ts'
import { sessionKey } from './session-key.ts'

const status = byId('changes-status')
const list = byId('changes-list')
const submit = byId<HTMLButtonElement>('changes-submit')

const key = sessionKey()
const STATES_FROM = { query: 'the states asked', nexus: "your account's nexus states", all: 'every state' } as const

byId<HTMLFormElement>('changes-form').addEventListener('submit', (event) => {
  event.preventDefault()
  void show()
})

function statesAsked(): string[] | undefined {
  const codes = byId<HTMLInputElement>('changes-states').value.split(/[\s,]+/).filter(Boolean)
  return codes.length ? codes : undefined
}

async function show(): Promise<void> {
  const { client } = consoleClient(key.value())
  const from = byId<HTMLInputElement>('changes-from').value.trim() || new Date().toISOString().slice(0, 10)
  submit.disabled = true
  status.replaceChildren('Loading…')
  list.replaceChildren()
  try {
    const pages: RateChangesResponse[] = []
    for await (const page of client.changePages({ states: statesAsked(), from, limit: 1000, impact: true })) pages.push(page)
    const first = pages[0]!
    const changes = pages.flatMap((page) => page.changes)
    const counted = `${changes.length.toLocaleString('en-US')} ${changes.length === 1 ? 'change' : 'changes'}`
    status.replaceChildren(
      h('span', { 'data-field': 'summary' }, `${counted} effective on or after ${from} in ${first.states.join(', ') || 'no state'} (${STATES_FROM[first.states_from]}), snapshot ${first.snapshot}.`),
      ...(changes[0]?.impact ? [h('span', { 'data-field': 'impact-window' }, ` Your sales: your transactions of ${changes[0].impact.window.from} to ${changes[0].impact.window.to} placed in each jurisdiction.`)] : []),
    )
    list.replaceChildren(changes.length ? changesTable(changes) : h('p', { 'data-field': 'none' }, 'No change is known for these states from this date on.'))
    key.settle()
  } catch (error) {
    key.settle(error)
    status.replaceChildren(problemView(error))
  } finally {
    submit.disabled = false
  }
}
