// A destination state as integrations send it: the USPS code in any case ("ga", "GA") or the full
// name ("Georgia"), for the 50 states, DC and Puerto Rico (the states the rules table covers).
import { STATES, stateByCode } from '../../sources/index.ts'

const BY_KEY = new Map<string, string>()
for (const state of STATES) {
  BY_KEY.set(state.code, state.code)
  BY_KEY.set(state.name.toUpperCase(), state.code)
}

/** The 2-letter code, or null when the text names no state we track. */
export function stateCodeOf(text: string): string | null {
  // A key as sent ("CA") is its own normal form.
  return BY_KEY.get(text) ?? BY_KEY.get(text.trim().replace(/\s+/g, ' ').toUpperCase()) ?? null
}

export const stateName = (code: string): string => stateByCode(code)?.name ?? code
