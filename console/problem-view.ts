// What the pages show when a call fails: the server's error envelope as it was sent (code,
// message, support reference, the body itself), or, when no answer came, that the server cannot
// be reached. Never a blank page.
import { TaxatlasError } from '../client/index.ts'
import { h } from './dom.ts'

/** A failure of fetch itself (no response): the server is down, restarting or unreachable. */
export const unreachableMessage = (origin: string) =>
  `The taxatlas server at ${origin} cannot be reached: it may be down or restarting. Try again in a moment.`

export function problemView(error: unknown): HTMLElement {
  const box = h('div', { class: 'problem', role: 'alert' })
  if (!(error instanceof TaxatlasError)) {
    if (error instanceof TypeError) box.append(h('h2', {}, 'Server unreachable'), h('p', {}, unreachableMessage(location.origin)))
    else box.append(h('h2', {}, 'Something went wrong in this page'), h('p', {}, String((error as Error)?.message ?? error)))
    return box
  }
  if (error.code === 'NETWORK_ERROR') {
    box.append(h('h2', {}, 'Server unreachable'), h('p', {}, unreachableMessage(location.origin)), h('p', { class: 'muted' }, error.message))
    return box
  }
  if (error.code === 'TIMEOUT') {
    box.append(h('h2', {}, 'No answer in time'), h('p', {}, error.message))
    return box
  }
  box.append(
    h('h2', {}, error.status === null ? error.code : `${error.status} ${error.code}`),
    h('p', { class: 'problem-message' }, error.message),
  )
  const detail = (error.body as { detail?: { loc?: unknown[]; msg?: string }[] } | null)?.detail
  if (Array.isArray(detail) && detail.length) {
    box.append(h('ul', { class: 'problem-detail' }, ...detail.map((item) => h('li', {}, h('code', {}, (item.loc ?? []).join('.')), ' ', item.msg ?? ''))))
  }
  if (error.supportReference) box.append(h('p', { class: 'muted' }, 'Support reference: ', h('code', {}, error.supportReference)))
  if (error.body !== null) {
    box.append(
      h('details', { class: 'envelope', open: true }, h('summary', {}, 'The error as sent'), h('pre', {}, typeof error.body === 'string' ? error.body : JSON.stringify(error.body, null, 2))),
    )
  }
  return box
}
