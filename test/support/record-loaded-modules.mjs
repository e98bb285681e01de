// Preloaded into a server process (`node --import`): every module the process loads has its URL
// appended to the file $TAXATLAS_TEST_LOADED_MODULES, so a test can tell which chunks of the
// bundle it made the server load. The hooks run on Node's loader thread.
import { register } from 'node:module'

register('./record-loaded-modules-hooks.mjs', import.meta.url, { data: { file: process.env.TAXATLAS_TEST_LOADED_MODULES } })
