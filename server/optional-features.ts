// The optional features a setting turns on, made ready before the server listens: one that cannot
// load stops start-up with its name and the setting that turned it on, where it would otherwise
// fail the first request, run or scrape that needs it. What only some requests need stays loaded
// on first use (docs/architecture.md "How the server starts").
import { loadPromClient } from './base/metrics.ts'
import { loadProxyAwareFetch } from './geocoder/census-geocoder.ts'
import type { ServerSettings } from './settings.ts'
import { loadExeca } from './snapshot/refresh-schedule.ts'
import { loadPostgresEngine } from './store/store.ts'

type OptionalFeature = { name: string; setting: string; enabled: boolean; load: () => Promise<unknown> }

/** Loads what each feature the settings turn on needs; the first that cannot load is the error, naming it and its setting. */
export async function loadEnabledFeatures(settings: ServerSettings): Promise<void> {
  const features: OptionalFeature[] = [
    { name: 'metrics', setting: 'TAXATLAS_METRICS_TOKEN', enabled: Boolean(settings.metricsToken), load: loadPromClient },
    { name: 'census geocoder', setting: 'TAXATLAS_GEOCODER_URL', enabled: Boolean(settings.geocoder), load: loadProxyAwareFetch },
    { name: 'scheduled refresh', setting: 'TAXATLAS_REFRESH_SCHEDULE', enabled: Boolean(settings.refresh), load: loadExeca },
    { name: 'PostgreSQL store', setting: 'TAXATLAS_STORE', enabled: settings.store.kind === 'postgres', load: loadPostgresEngine },
  ]
  for (const feature of features.filter((f) => f.enabled)) {
    try {
      await feature.load()
    } catch (error) {
      throw new Error(`${feature.name} (${feature.setting}): ${(error as Error).message}`, { cause: error })
    }
  }
}
