import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'NE',
  name: 'Nebraska',
  fips: '31',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '00', read: 'county', why: 'the county tax (Dakota County) applies only outside municipalities that levy their own' }], { countyWithinCities: 'not-levied' }),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_NE*.csv' },
    statutoryFloor('Nebraska', 'Nebraska DOR + SST quarterly files'),
  ],
  combinedBounds: [0, 14500],
  anchors: [
    { feed: 'avalara-zip5', zip: '68102', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NE202512.csv row 68102 (OMAHA): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
