#!/usr/bin/env node
/**
 * The emulator as a program, for tests in any language (npm installs it as
 * `cdktf-google-iam-emulator`, or `cdktn-google-iam-emulator` with the cdktn flavour):
 *
 *   cdktf-google-iam-emulator [--port N] [--services secretmanager,...] [--read-lag-ms N] [--latency-ms N] [--accept-any-role] [--json] [--log]
 *
 * `--help` (`-h`) prints the usage and exits 0; a wrong option prints it to
 * stderr and exits 2, as command-line tools do.
 *
 * Prints the environment that points the provider, the lookups and `terraform`
 * at it (gcloud's endpoint overrides, an access token), as `export` lines
 * or, with `--json`, as one JSON line
 * `{"url": ..., "env": {...}}`; then serves until SIGINT/SIGTERM. Seed and
 * inspect it over HTTP (the admin API of emulator.ts): POST /__emulator/resources
 * {name, policy, visibleAfterMs, hiddenAs}, POST /__emulator/service-accounts {email, refusedForMs},
 * POST /__emulator/read-lag {ms}, POST /__emulator/remove-resource {name}, POST
 * /__emulator/import-jobs {job}, POST /__emulator/faults {faults}, GET
 * /__emulator/policies/{name}, GET /__emulator/writes, GET /__emulator/stats.
 */
import * as path from 'path';
import { parseArgs } from 'util';
import { GoogleApiEmulator } from './emulator';

const PROGRAM = path.basename(process.argv[1] ?? 'cdktf-google-iam-emulator').replace(/\.js$/, '');

const USAGE = `usage: ${PROGRAM} [--port N] [--services NAME,...] [--read-lag-ms N] [--latency-ms N] [--accept-any-role] [--json] [--log]

Starts the Google API emulator, prints the environment that points the provider,
the lookups and terraform at it, and serves until SIGINT or SIGTERM.

  --port N             port to listen on (default: 0, any free port)
  --services NAME,...  more services to print endpoint overrides for, e.g. secretmanager
  --read-lag-ms N      reads lag writes by N ms, as Google's IAM reads may (default: 0)
  --latency-ms N       wait N ms before each API answer, as a network round trip to Google does (default: 0)
  --accept-any-role    accept any role in setIamPolicy (default: as Google, a role it does not
                       list or that cannot be granted on the resource's type is a 400)
  --json               print {"url": ..., "env": {...}} as one JSON line instead of export lines
  --log                log each request to stderr
  -h, --help           print this help and exit
`;

/** The exit code of a command line that cannot be run, as getopt-style tools use it. */
const EXIT_USAGE = 2;

const OPTIONS = {
  port: { type: 'string', default: '0' },
  services: { type: 'string', default: '' },
  'read-lag-ms': { type: 'string', default: '0' },
  'latency-ms': { type: 'string', default: '0' },
  'accept-any-role': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  log: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** A command line that cannot be run: its message is printed with the usage. */
class UsageError extends Error {}

function parseCommandLine(args: string[]) {
  let values;
  try {
    ({ values } = parseArgs({ args, options: OPTIONS }));
  } catch (error) {
    // util.parseArgs reports unknown options, missing values and stray arguments with ERR_PARSE_ARGS_* codes.
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message);
    throw error;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: expected 0 to 65535, got ${JSON.stringify(values.port)}`);
  for (const option of ['read-lag-ms', 'latency-ms'] as const) {
    const ms = Number(values[option]);
    if (!Number.isFinite(ms) || ms < 0)
      throw new UsageError(`--${option}: expected a non-negative number, got ${JSON.stringify(values[option])}`);
  }
  return values;
}

async function main(): Promise<void> {
  let values;
  try {
    values = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${PROGRAM}: ${error.message}\n\n${USAGE}`);
    process.exit(EXIT_USAGE);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const emulator = await GoogleApiEmulator.start({
    port: Number(values.port),
    readLagMs: Number(values['read-lag-ms']),
    latencyMs: Number(values['latency-ms']),
    acceptAnyRole: values['accept-any-role'],
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
  process.stderr.write(`${PROGRAM}: ${error.message}\n`);
  process.exit(1);
});
