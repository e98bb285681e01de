import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'WI',
  name: 'Wisconsin',
  fips: '55',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_WI*.csv' },
    statutoryFloor('Wisconsin', 'Wisconsin DOR + SST quarterly files'),
  ],
  combinedBounds: [0, 14000],
  anchors: [
    { feed: 'sst', zip: '53202', expected: '0.07900', asOf: '2026-04-01', edition: '2026Q2FEB18', source: 'WIR2026Q2FEB18.csv rows 55,45,55 (0.05), 55,00,079 Milwaukee County (0.009 from 2024-01-01), 55,01,53000 Milwaukee city (0.02 from 2024-01-01)' },
    { feed: 'sst', zip: '53202', expected: '0.05500', asOf: '2023-06-01', edition: '2026Q2FEB18', source: 'same file on 2023-06-01: county 0.005 (1991-04-01..2023-12-31), no city tax before 2023-09-18' },
  ],
})
