// Where the seller is (seller_state, seller_zip of GET /v1/portability/rates), read against the
// snapshot in service: a state code or name, and a ZIP the data holds. Either one is enough to tell
// an interstate sale; the ZIP names the state when seller_state is not sent, and a pair that
// disagrees is refused rather than guessed at.
import { readZip } from '../lookup/address/zip-text.ts'
import { invalidInput } from '../lookup/lookup-errors.ts'
import type { ZipEntries } from '../lookup/zip-entries.ts'
import type { Seller } from '../order-tax/sourcing.ts'
import { stateCodeOf } from '../sale/state-code.ts'

function readSellerZip(text: string, zips: ZipEntries): { zip5: string; states: string[] } {
  const zip = readZip(text.trim())
  if (!zip.ok) throw invalidInput(`seller_zip: ${zip.reason}.`, { field: 'seller_zip' })
  const facts = zips.facts(zip.zip.zip5)
  if (!facts) throw invalidInput(`seller_zip ${zip.zip.zip5} is not a known ZIP.`, { field: 'seller_zip' })
  return { zip5: zip.zip.zip5, states: facts.states }
}

export function readSeller(stateText: string | undefined, zipText: string | undefined, zips: ZipEntries): Seller | null {
  const state = stateText === undefined ? null : stateCodeOf(stateText)
  if (stateText !== undefined && !state) throw invalidInput(`seller_state "${stateText}" is not a US state code or name.`, { field: 'seller_state' })
  if (zipText === undefined) return state ? { state, zip5: null } : null
  const zip = readSellerZip(zipText, zips)
  if (state && !zip.states.includes(state)) {
    throw invalidInput(`seller_state ${state} and seller_zip ${zip.zip5} (${zip.states.join(', ')}) disagree; send the seller's own pair.`, {
      field: 'seller_state',
    })
  }
  if (!state && zip.states.length > 1) {
    throw invalidInput(`seller_zip ${zip.zip5} straddles a state line (${zip.states.join(', ')}); send seller_state too.`, { field: 'seller_state' })
  }
  return { state: state ?? zip.states[0]!, zip5: zip.zip5 }
}
