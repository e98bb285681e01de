import { defineState, IDOR_ORDMACHE_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'IL',
  name: 'Illinois',
  fips: '17',
  klass: 'auto',
  feeds: [
    { kind: 'idor-ordmache', url: IDOR_ORDMACHE_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_IL*.csv' },
    statutoryFloor('Illinois', 'Illinois DOR (Tax Rate Finder, location rate files)'),
  ],
  combinedBounds: [0, 15250],
  anchors: [
    { feed: 'idor-ordmache', zip: '60601', expected: '0.10250', asOf: '2026-01-01', edition: '2026-01-01', source: 'ordmache-current.txt record 016-0001-1 CHICAGO (COOK): current period from 2016-01-01, general merchandise rate 10.250% (state share included); HUD puts 60601 wholly in Cook County, USPS city CHICAGO' },
    { feed: 'avalara-zip5', zip: '60601', expected: '0.10250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_IL202512.csv row 60601 (CHICAGO METRO PIER AND EXPOSITION AUTHORITY DISTRICT): combined 0.102500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
