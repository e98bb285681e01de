// Minnesota district taxes (SST rate file type 63, codes 800xx) whose area is set by statute or
// county resolution. Compiled from shared rules mn-regional-taxes.md; each row cites its sources.
import { defineDistrictAreas } from './district-area.ts'

const METRO = ['Anoka', 'Carver', 'Dakota', 'Hennepin', 'Ramsey', 'Scott', 'Washington']

export default defineDistrictAreas({
  state: 'MN',
  source: 'shared/rules/mn-regional-taxes.md',
  areas: [
    {
      tax: 'Regional transportation sales and use tax (Metropolitan Council)',
      rate: '0.00750',
      firstDay: '2023-10-01',
      counties: METRO,
      citation: 'Minn. Stat. § 297A.9915 ("three-quarters of one percent … made in the metropolitan area"); Star Tribune, "Metro sales taxes jumped Oct. 1" (2023)',
    },
    {
      tax: 'Metropolitan-area housing sales tax',
      rate: '0.00250',
      firstDay: '2023-10-01',
      counties: METRO,
      citation: 'Laws 2023 (housing omnibus); Star Tribune (2023): "0.75% for transportation and 0.25% for housing", in all seven metro counties',
    },
    {
      tax: 'County transportation sales and use tax (raised from the 0.25% Counties Transit Improvement Board tax)',
      rate: '0.00500',
      firstDay: '2017-10-01',
      counties: ['Hennepin', 'Ramsey'],
      citation: 'Hennepin County Resolution 17-0207 under Minn. Stat. § 297A.993; Star Tribune, "Hennepin, Ramsey counties raise transit tax" (2017): both "increased their transportation tax to a half cent … goes into effect Oct. 1"',
    },
  ],
})
