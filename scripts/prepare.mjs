#!/usr/bin/env node
// `prepare`: `npm install`, `npm ci` and `npm pack` build dist/ (the packed
// package carries only dist/ and bin/). `npx agentd` inside a clone also runs
// it: npm exec links the project into its cache to find the bin, and runs the
// project's `prepare` on the way. There the build is skipped: bin/agentd.mjs
// runs the sources through tsx while dist/ is missing or older than src/, so
// the command answers at once instead of after a full build.
import { spawnSync } from 'node:child_process';

if (process.env.npm_command === 'exec') process.exit(0);
const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
