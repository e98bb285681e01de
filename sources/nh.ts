import { defineState } from './descriptor.ts'

export default defineState({
  code: 'NH',
  name: 'New Hampshire',
  fips: '33',
  klass: 'static',
  feeds: [
    { kind: 'statutory' },
  ],
  combinedBounds: [0, 0],
  anchors: [
    { feed: 'statutory', zip: '03301', expected: '0.00000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 0.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
