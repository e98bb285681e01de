// An answer's rates by level, in integer 1e-5 units; the combined rate is their exact integer sum.
import type { Authority } from '../../snapshot-contract/rate-index.ts'

export type RateParts = { state: number; county: number; city: number; district: number; combined: number }

export function rateParts(authorities: readonly Authority[]): RateParts {
  const parts = { state: 0, county: 0, city: 0, district: 0, combined: 0 }
  for (const authority of authorities) {
    parts[authority.level] += authority.rate
    parts.combined += authority.rate
  }
  return parts
}
