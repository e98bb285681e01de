import { defineState } from './descriptor.ts'

export default defineState({
  code: 'CT',
  name: 'Connecticut',
  fips: '09',
  klass: 'static',
  feeds: [
    { kind: 'statutory' },
  ],
  combinedBounds: [6350, 6350],
  anchors: [
    { feed: 'statutory', zip: '06103', expected: '0.06350', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.350% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
