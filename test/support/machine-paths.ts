// Finds absolute paths of this machine in a text meant for the public: a `/a/b` that is not part of
// a URL (no scheme, host or word before it) and exists on this filesystem or lies under one of the
// directories given, and any file:// URL.
import { existsSync, realpathSync } from 'node:fs'
import os from 'node:os'
import { PROJECT_ROOT, SHARED } from './shared.ts'

const CANDIDATE = /(?<![\w:/.%@-])\/[\w.@+~-]+(?:\/[\w.@+~-]*)*/g

const withRealPaths = (dirs: string[]) => [...new Set(dirs.flatMap((dir) => (existsSync(dir) ? [dir, realpathSync(dir)] : [dir])))]

/** The machine's paths in `text`; `roots`: more directories whose paths count even once removed. */
export function machinePathsIn(text: string, roots: string[] = []): string[] {
  const under = withRealPaths([SHARED, PROJECT_ROOT, os.tmpdir(), os.homedir(), ...roots])
  const found = [...text.matchAll(/file:\/\/\S*/g)].map((m) => m[0])
  for (const [match] of text.matchAll(CANDIDATE)) {
    const candidate = match.replace(/[.,;:]+$/, '')
    if (candidate.length > 1 && (existsSync(candidate) || under.some((dir) => candidate === dir || candidate.startsWith(`${dir}/`)))) found.push(candidate)
  }
  return found
}
