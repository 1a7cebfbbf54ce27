#!/usr/bin/env node
/**
 * The emulator as a program, for tests in any language (npm installs it as
 * `cdktf-google-iam-emulator`, or `cdktn-google-iam-emulator` with the cdktn flavour):
 *
 *   cdktf-google-iam-emulator [--port N] [--services secretmanager,...] [--json]
 *
 * Prints the environment that points the runner, the lookups and `terraform`
 * at it (gcloud's endpoint overrides, an access token), as `export` lines
 * or, with `--json`, as one JSON line
 * `{"url": ..., "env": {...}}`; then serves until SIGINT/SIGTERM. Seed and
 * inspect it over HTTP (the admin API of emulator.ts): POST /__emulator/resources
 * {name, policy}, POST /__emulator/remove-resource {name}, POST
 * /__emulator/import-jobs {job}, POST /__emulator/faults {faults}, GET
 * /__emulator/policies/{name}, GET /__emulator/writes, GET /__emulator/stats.
 */
import * as path from 'path';
import { parseArgs } from 'util';
import { GoogleApiEmulator } from './emulator';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      services: { type: 'string', default: '' },
      json: { type: 'boolean', default: false },
      log: { type: 'boolean', default: false },
    },
  });
  const emulator = await GoogleApiEmulator.start({
    port: Number(values.port),
    log: values.log ? (line) => process.stderr.write(`${line}\n`) : undefined,
  });
  const services = (values.services ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const env = emulator.env(GoogleApiEmulator.ACCESS_TOKEN, services);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ url: emulator.url, env })}\n`);
  } else {
    process.stdout.write(`# Google API emulator listening at ${emulator.url}\n`);
    for (const [name, value] of Object.entries(env)) process.stdout.write(`export ${name}=${JSON.stringify(value)}\n`);
  }
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`${path.basename(process.argv[1] ?? 'cdktf-google-iam-emulator')}: ${error.message}\n`);
  process.exit(1);
});
