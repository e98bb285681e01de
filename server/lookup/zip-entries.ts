// ZIP entries of one snapshot for one request, and the ZipFacts the address module derives the
// served state from. The last ZIP read is remembered: normalization and resolution ask for the same one.
import type { ZipEntry } from '../../snapshot-contract/rate-index.ts'
import type { ZipFacts } from './address/index.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'
import { statewideZipEntry } from './statewide-zip.ts'

export class ZipEntries {
  #zip5 = ''
  #entries: ZipEntry[] = []

  constructor(private readonly view: SnapshotView) {}

  /** One entry per state serving the ZIP (two for a ZIP straddling a state line); a statewide state's unlisted ZIP of its prefix has one too. */
  of(zip5: string): ZipEntry[] {
    if (zip5 !== this.#zip5) {
      const listed = this.view.rates.lookupZip(zip5)
      const statewide = listed.length === 0 ? statewideZipEntry(this.view, zip5) : null
      this.#entries = statewide ? [statewide] : listed
      this.#zip5 = zip5
    }
    return this.#entries
  }

  /** A withheld ZIP still names its state, so a wrong path state is repaired before the 404 says why. */
  readonly facts: ZipFacts = (zip5) => {
    const entries = this.of(zip5)
    if (entries.length === 0) {
      const withheld = factsOf(this.view).withheld(zip5)
      return withheld ? { state: withheld.state, straddles: false, states: [withheld.state] } : null
    }
    const states = entries.map((e) => e.state)
    return { state: states[0]!, straddles: states.length > 1, states }
  }
}
