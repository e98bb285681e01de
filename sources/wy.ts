import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'WY',
  name: 'Wyoming',
  fips: '56',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '69', read: 'undecoded', why: 'type-69 rows (02290, 02291, 2% each), possibly Wind River: their meaning is unconfirmed' }]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_WY*.csv' },
    statutoryFloor('Wyoming', 'Wyoming DOR Excise Tax Division rate charts + SST quarterly files'),
  ],
  combinedBounds: [0, 13000],
  anchors: [
    { feed: 'avalara-zip5', zip: '82001', expected: '0.06000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_WY202512.csv row 82001 (CHEYENNE): combined 0.060000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
