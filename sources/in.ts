import { defineState } from './descriptor.ts'

export default defineState({
  code: 'IN',
  name: 'Indiana',
  fips: '18',
  klass: 'static',
  feed: { kind: 'statutory' },
  combinedBounds: [7000, 7000],
  anchors: [
    { zip: '46204', expected: '0.07000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 7.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
