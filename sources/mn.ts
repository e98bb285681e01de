import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: 'MN',
  name: 'Minnesota',
  fips: '27',
  klass: 'auto',
  feed: { kind: 'sst', ratesUrl: SST_RATES_URL },
  combinedBounds: [0, 15875],
  anchors: [
    { zip: '56139', expected: '0.06875', asOf: '2026-04-01', edition: '2026Q2FEB18', source: 'MNR2026Q2FEB18.csv state row 27,45,27 (0.06875); Pipestone County (117) has no county row and Holland (27-29618) no city row; MN district rows (type 63) cannot be bound without the boundary file' },
  ],
})
