#!/usr/bin/env node
// `npm run cama -- <command>`: the command-line door to the engine, the simulator and the harness
// (the commands themselves: program.ts).

import { runCama } from './program';

const code = await runCama(process.argv.slice(2));
// On success the process ends when its work does; a failure exits at once, as before (a usage error
// must not wait on, say, onnxruntime's threads).
if (code !== 0) process.exit(code);
