import { serveProvider } from './protocol/serve';

/**
 * The provider's entry point (bundled into dist/provider/terraform-provider-googleiam.js, the program of the
 * native executables): started by Terraform, it serves the plugin protocol; `lookup` is the Direct-form lookup mode.
 * Each mode requires its code when it runs: Terraform waits only for the handshake, which needs little of it.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- see above */
if (process.argv[2] === 'lookup') {
  (require('./lookup-mode') as typeof import('./lookup-mode')).lookupMain().catch((error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
} else {
  serveProvider(() => (require('./google-iam-provider') as typeof import('./google-iam-provider')).googleIamProvider());
}
