// A real snapshot for the portability tests and bench: the pipeline run against the test mirror
// for GA (sales_or_transactions), CT (sales_and_transactions), DE (no sales tax) and MA
// (sales_only), built once per mirror and copied per test file. Also the real ZIPs it serves, so
// generated transactions pass the ZIP/state check.
import { copyOfCachedArtifacts } from './server-snapshot.ts'

export const PORTABILITY_STATES = 'GA,CT,DE,MA'

/** A temp artifacts directory with CURRENT pointing at a copy of the cached snapshot (of other `states` when given: a snapshot of their own). */
export const portabilityArtifacts = (mirrorUrl: string, states = PORTABILITY_STATES): Promise<string> =>
  copyOfCachedArtifacts(mirrorUrl, { name: states === PORTABILITY_STATES ? 'portability' : `portability-${states.replaceAll(',', '-')}`, states })

export { servedZips } from './served-zips.ts'
