import { defineState } from './descriptor.ts'

export default defineState({
  code: 'RI',
  name: 'Rhode Island',
  fips: '44',
  klass: 'static',
  feed: { kind: 'statutory' },
  combinedBounds: [7000, 7000],
  anchors: [
    { zip: '02903', expected: '0.07000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 7.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
