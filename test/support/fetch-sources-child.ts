// A state's sources fetched the way a refresh fetches them, as a process of its own: the settings,
// the proxy variables and NODE_EXTRA_CA_CERTS come from its environment (which Node reads only at
// start, so a test reaching the publisher replica runs this as a child). Prints, as one JSON line,
// the editions chosen and the files fetched, or the error that stopped it.
import { fetchStateSources } from '../../pipeline/run/load-state.ts'
import { readPipelineSettings } from '../../pipeline/settings.ts'
import { Listings } from '../../pipeline/fetch/source-listing.ts'
import { stateByCode } from '../../sources/index.ts'

const descriptor = stateByCode(process.argv[2] ?? '')
if (!descriptor) throw new Error(`no state ${process.argv[2]}`)
const settings = readPipelineSettings()
try {
  const sources = await fetchStateSources(descriptor, descriptor.feeds[0]!, { settings, listings: new Listings(settings) })
  const choices = sources.choices.map((c) => ({ edition: c.edition, fileName: c.request.fileName, url: c.request.officialUrl, how: c.how }))
  const fetched = sources.fetched.map((f) => ({ name: f.name, url: f.url, sha256: f.sha256 }))
  process.stdout.write(`${JSON.stringify({ choices, fetched })}\n`)
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`)
}
