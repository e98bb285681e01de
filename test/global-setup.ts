// Serves ../shared/mirror and ../shared/geo over real HTTP on loopback ports for the whole run, as
// CI does; a directory answers an index page listing its files (support/index-page.ts).
import type { TestProject } from 'vitest/node'
import { sharedPath } from './support/shared.ts'
import { serveFolder } from './support/temp-mirror.ts'

export default async function setup(project: TestProject) {
  const mirror = await serveFolder(sharedPath('mirror'))
  const geo = await serveFolder(sharedPath('geo'))
  project.provide('mirrorUrl', mirror.url)
  project.provide('geoUrl', geo.url)
  return async () => {
    await mirror.close()
    await geo.close()
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    mirrorUrl: string
    /** ../shared/geo over HTTP: the geography inputs laid out as hud/, geocorr/, census-places-2015/ */
    geoUrl: string
  }
}
