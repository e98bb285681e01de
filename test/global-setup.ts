// Serves ../shared/mirror over real HTTP on loopback ports for the whole run, as
// CI does; a directory answers an index page listing its files (support/index-page.ts).
import type { TestProject } from 'vitest/node'
import { sharedPath } from './support/shared.ts'
import { serveFolder } from './support/temp-mirror.ts'

export default async function setup(project: TestProject) {
  const mirror = await serveFolder(sharedPath('mirror'))
  project.provide('mirrorUrl', mirror.url)
  return async () => {
    await mirror.close()
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    mirrorUrl: string
  }
}
