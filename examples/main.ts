// `npx cdktf synth` runs this (see cdktf.json). The Direct-form lookup in the
// app needs Google: with no credentials configured, the example uses the
// embedded emulator for the length of the synth.
import { buildExampleApp } from './app';
import { hasGoogleConfiguration, startSeededEmulator } from './emulated';

async function main(): Promise<void> {
  if (hasGoogleConfiguration(process.env)) {
    (await buildExampleApp()).synth();
    return;
  }
  const emulator = await startSeededEmulator();
  Object.assign(process.env, emulator.env());
  process.stderr.write(`No Google credentials configured: synthesizing against the embedded emulator at ${emulator.url}\n`);
  try {
    (await buildExampleApp()).synth();
  } finally {
    await emulator.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
