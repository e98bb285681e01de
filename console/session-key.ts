// The API key typed on a console page, kept for the browser tab's session so that the console's
// other pages fill it in: in sessionStorage, which ends with the tab, never in localStorage, which
// outlives it, and never in a URL (history, logs, Referer). A key the server refuses (401) is
// forgotten, and the page's "Forget key" button forgets it at once.
import { AuthenticationError } from '../client/index.ts'
import { byId } from './dom.ts'

const ITEM = 'taxatlas.api-key'

/** The tab's session storage; null where the browser refuses storage (the key then stays in the field only). */
function session(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

export type SessionKey = {
  /** the key in the field, trimmed; undefined when empty */
  value(): string | undefined
  /** whether the field was filled with a key kept by an earlier page of this tab */
  readonly remembered: boolean
  /** after a call made with the key: kept for the session, or forgotten when the server refused it */
  settle(error?: unknown): void
}

/** The key this tab keeps, for a page without a key field (the API reference authorizes with it). */
export const keptKey = (): string | null => session()?.getItem(ITEM) ?? null

/** The page's key field (#api-key), filled with the key this tab keeps, if any. */
export function sessionKey(): SessionKey {
  const field = byId<HTMLInputElement>('api-key')
  const kept = keptKey() ?? ''
  if (kept && !field.value) field.value = kept
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-forget-key]')) {
    button.addEventListener('click', () => {
      session()?.removeItem(ITEM)
      field.value = ''
      field.dispatchEvent(new Event('input'))
      field.focus()
    })
  }
  const value = () => field.value.trim() || undefined
  return {
    value,
    remembered: kept !== '',
    settle(error) {
      const key = value()
      if (error instanceof AuthenticationError) session()?.removeItem(ITEM)
      else if (key) session()?.setItem(ITEM, key)
    },
  }
}
