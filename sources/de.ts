import { defineState } from './descriptor.ts'

export default defineState({
  code: 'DE',
  name: 'Delaware',
  fips: '10',
  klass: 'static',
  feeds: [
    { kind: 'statutory' },
  ],
  combinedBounds: [0, 0],
  anchors: [
    { feed: 'statutory', zip: '19801', expected: '0.00000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 0.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
