#!/usr/bin/env node
// npm run fuzz -- --minutes N [--seed S] [--only flows,cdp,routes,mcp,agent]
// Loops the fuzzer's properties (test/fuzz.test.ts) against child servers until N minutes are up,
// then prints one line of JSON: cases run per property, failures (seed, path, shrunk case, error)
// and crashes of the server seen meanwhile. Exits 1 when anything failed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '5' }, seed: { type: 'string' }, only: { type: 'string' } },
});
const minutes = Number(values.minutes);
if (!(minutes > 0)) {
  console.error('--minutes must be a positive number');
  process.exit(2);
}
const root = path.join(import.meta.dirname, '..');
const summaryFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bd-fuzz-summary-')), 'summary.json');
const env = {
  ...process.env,
  FUZZ_MINUTES: String(minutes),
  FUZZ_SUMMARY: summaryFile,
  ...(values.seed ? { FUZZ_SEED: values.seed } : {}),
  ...(values.only ? { FUZZ_ONLY: values.only } : {}),
};
const child = spawn('npx', ['vitest', 'run', 'test/fuzz.test.ts'], {
  cwd: root,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
child.on('exit', (code) => {
  let summary;
  try {
    summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
  } catch {
    summary = { minutes, error: `the fuzz run ended (exit code ${code}) without a summary: see its output above` };
  }
  fs.rmSync(path.dirname(summaryFile), { recursive: true, force: true });
  console.log(JSON.stringify(summary));
  process.exit(code !== 0 || summary.error || summary.failures?.length || summary.crashes?.length ? 1 : 0);
});
