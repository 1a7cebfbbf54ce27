import { googleIamProvider } from './google-iam-provider';
import { lookupMain } from './lookup-mode';
import { serveProvider } from './protocol/serve';

/**
 * The provider's entry point (bundled into dist/provider/terraform-provider-googleiam.js):
 * started by Terraform, it serves the plugin protocol; `lookup` is the Direct-form lookup mode.
 */
if (process.argv[2] === 'lookup') {
  lookupMain().catch((error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
} else {
  serveProvider(googleIamProvider());
}
