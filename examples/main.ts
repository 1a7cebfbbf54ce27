// `npx cdktf synth` runs this (see cdktf.json). The Direct-form lookup in the
// app is answered from its committed context file; with no credentials
// configured, the example points the environment at the embedded emulator for
// the length of the synth all the same. (A lookup read afresh could not use it:
// a lookup blocks this process, which serves the embedded emulator.)
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
