// The bundled server (`make build/server/main.mjs`) as start-up loads it: main.mjs and the chunks it
// imports statically hold none of the dependencies only some requests or settings need (undici,
// execa, prom-client, pg), and zod without its locales; those sit in chunks of their own, imported
// on first use (docs/architecture.md "Start-up").
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from './support/shared.ts'

const BUNDLE_DIR = path.join(PROJECT_ROOT, 'build/server')

/** The chunks a module imports statically (`import … from "./chunks/x.mjs"`) and dynamically (`import("./chunks/x.mjs")`). */
function importsOf(file: string): { statics: string[]; dynamics: string[] } {
  const text = readFileSync(path.join(BUNDLE_DIR, file), 'utf8')
  const resolve = (specifier: string) => path.relative(BUNDLE_DIR, path.resolve(path.dirname(path.join(BUNDLE_DIR, file)), specifier))
  return {
    statics: [...text.matchAll(/^import\s+(?:[^;]*?\s+from\s+)?"(\.{1,2}\/[^"]+)"/gm)].map((m) => resolve(m[1]!)),
    dynamics: [...text.matchAll(/\bimport\("(\.{1,2}\/[^"]+)"\)/g)].map((m) => resolve(m[1]!)),
  }
}

/** The bundled packages' files a chunk holds, from esbuild's `// node_modules/<path>` comments. */
const packagesIn = (file: string) => [...readFileSync(path.join(BUNDLE_DIR, file), 'utf8').matchAll(/^\/\/ node_modules\/(\S+)$/gm)].map((m) => m[1]!)

describe('the bundled server', () => {
  it('loads at start-up only what every start needs; the rest is imported on first use', async () => {
    await execa('make', ['-s', 'build/server/main.mjs'], { cwd: PROJECT_ROOT })
    const atStartup = new Set<string>()
    const later = new Set<string>()
    const pending = ['main.mjs']
    while (pending.length) {
      const file = pending.pop()!
      if (atStartup.has(file)) continue
      atStartup.add(file)
      const { statics, dynamics } = importsOf(file)
      pending.push(...statics)
      for (const chunk of dynamics) later.add(chunk)
    }
    const loaded = [...atStartup].flatMap(packagesIn)
    expect(loaded.some((file) => file.startsWith('zod/'))).toBe(true)
    expect(loaded.filter((file) => file.startsWith('zod/v4/locales/'))).toEqual(['zod/v4/locales/en.js'])
    for (const lazy of ['undici/', 'execa/', 'prom-client/', 'pg/']) {
      expect(loaded.filter((file) => file.startsWith(lazy)), lazy).toEqual([])
      const chunks = [...later].filter((chunk) => !atStartup.has(chunk) && packagesIn(chunk).some((file) => file.startsWith(lazy)))
      expect(chunks.length, `a chunk imported on first use holds ${lazy}`).toBeGreaterThan(0)
    }
  })
})
