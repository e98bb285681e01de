import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'IA',
  name: 'Iowa',
  fips: '19',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '63', codes: '98(\\d{3})', read: 'county-district', why: "the county's 1% Local Option Sales Tax, coded 98000 + county FIPS (98199 names no county); at most one per stack, capped at 1%" }], { localCap: 1000 }),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_IA*.csv' },
    statutoryFloor('Iowa', 'Iowa DOR + SST quarterly files'),
  ],
  combinedBounds: [0, 15000],
  anchors: [
    { feed: 'avalara-zip5', zip: '50309', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_IA202512.csv row 50309 (DES MOINES): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
