// The documented JSON of the Census Geocoder's `geographies/onelineaddress` (format=json), reduced
// to the fields a tax lookup uses. Unknown fields and geography layers are ignored; the layers
// read here are those of the Current_Current vintage.
import * as z from 'zod'

const County = z.object({
  GEOID: z.string().regex(/^\d{5}$/),
  NAME: z.string().min(1),
  /** the name without its legal description ("King" for NAME "King County"), as the snapshot names counties */
  BASENAME: z.string().min(1).optional(),
})

const IncorporatedPlace = z.object({
  GEOID: z.string().regex(/^\d{7}$/),
  NAME: z.string().min(1),
  /** "Seattle" for NAME "Seattle city" */
  BASENAME: z.string().min(1).optional(),
})

const State = z.object({ STUSAB: z.string().regex(/^[A-Z]{2}$/) })

export const CensusAddressMatch = z.object({
  matchedAddress: z.string().min(1),
  coordinates: z.object({ x: z.number().finite(), y: z.number().finite() }),
  addressComponents: z.object({
    zip: z.string().regex(/^\d{5}$/),
    state: z.string().regex(/^[A-Z]{2}$/),
  }),
  geographies: z.object({
    Counties: z.array(County).min(1),
    'Incorporated Places': z.array(IncorporatedPlace).optional(),
    States: z.array(State).optional(),
  }),
})
export type CensusAddressMatch = z.infer<typeof CensusAddressMatch>

export const CensusGeographiesResponse = z.object({
  result: z.object({
    input: z.record(z.string(), z.unknown()),
    addressMatches: z.array(CensusAddressMatch),
  }),
})
