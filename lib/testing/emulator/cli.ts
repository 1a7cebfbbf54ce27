#!/usr/bin/env node
/**
 * The emulator as a program, for tests in any language (npm installs it as
 * `cdktf-google-iam-emulator`, or `cdktn-google-iam-emulator` with the cdktn flavour):
 *
 *   cdktf-google-iam-emulator [--port N] [--services secretmanager,...]
 *       [--post-get-iam-policy-services spanner,...] [--external-provider] [--json] [--log]
 *
 * Prints the environment that points the runner, the lookups and `terraform`
 * at it (gcloud's endpoint overrides, an access token; with
 * `--external-provider` also `TF_CLI_CONFIG_FILE` and
 * `TF_EXTERNAL_STAND_IN_NODE` for the stand-in of hashicorp/external), as
 * `export` lines or, with `--json`, as one JSON line `{"url": ..., "env": {...}}`;
 * then serves until SIGINT/SIGTERM. `--post-get-iam-policy-services` names the
 * services whose getIamPolicy is a POST (default: the emulator's
 * `POST_GET_IAM_POLICY_SERVICES`). Seed and
 * inspect it over HTTP (the admin API of emulator.ts): POST /__emulator/resources
 * {name, policy}, POST /__emulator/remove-resource {name}, POST
 * /__emulator/import-jobs {job}, POST /__emulator/faults {faults}, GET
 * /__emulator/policies/{name}, GET /__emulator/writes, GET /__emulator/stats.
 */
import * as path from 'path';
import { parseArgs } from 'util';
import { ExternalProviderStandIn } from '../terraform-provider-external/install';
import { GoogleApiEmulator } from './emulator';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      services: { type: 'string', default: '' },
      'post-get-iam-policy-services': { type: 'string' },
      'external-provider': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      log: { type: 'boolean', default: false },
    },
  });
  const list = (text: string) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const postServices = values['post-get-iam-policy-services'];
  const emulator = await GoogleApiEmulator.start({
    port: Number(values.port),
    log: values.log ? (line) => process.stderr.write(`${line}\n`) : undefined,
    ...(postServices === undefined ? {} : { postGetIamPolicyServices: list(postServices) }),
  });
  const services = list(values.services ?? '');
  const env = {
    ...emulator.env(GoogleApiEmulator.ACCESS_TOKEN, services),
    ...(values['external-provider'] ? ExternalProviderStandIn.install().env : {}),
  };
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
