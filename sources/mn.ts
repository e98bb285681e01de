import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'MN',
  name: 'Minnesota',
  fips: '27',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_MN*.csv' },
    statutoryFloor('Minnesota', 'Minnesota DOR + SST quarterly files'),
  ],
  combinedBounds: [0, 15875],
  anchors: [
    { feed: 'sst', zip: '56139', expected: '0.06875', asOf: '2026-04-01', edition: '2026Q2FEB18', source: 'MNR2026Q2FEB18.csv state row 27,45,27 (0.06875); Pipestone County (117) has no county row and Holland (27-29618) no city row; Pipestone County is outside every district area of sources/mn-district-areas.ts' },
    { feed: 'sst', zip: '55401', expected: '0.09025', asOf: '2026-04-01', edition: '2026Q2FEB18', source: 'MNR2026Q2FEB18.csv rows 27,45,27 (0.06875), 27,00,053 Hennepin (0.0015), 27,01,43000 Minneapolis (0.005), 27,63,80004 (0.005 from 2017-10-01), 27,63,80008 (0.0075 from 2023-10-01), 27,63,80009 (0.0025 from 2023-10-01), the districts placed in Hennepin by sources/mn-district-areas.ts; mn-regional-taxes.md: the combined rate MN DOR publishes for Minneapolis is 9.025%' },
  ],
})
