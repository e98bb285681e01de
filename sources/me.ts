import { defineState } from './descriptor.ts'

export default defineState({
  code: 'ME',
  name: 'Maine',
  fips: '23',
  klass: 'static',
  feeds: [
    { kind: 'statutory' },
  ],
  combinedBounds: [5500, 5500],
  anchors: [
    { feed: 'statutory', zip: '04101', expected: '0.05500', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 5.500% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
