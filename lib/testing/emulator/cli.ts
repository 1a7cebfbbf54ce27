/**
 * Runs the emulator on its own: `npx ts-node --transpile-only test/emulator/cli.ts [port]`.
 * Prints the environment that points the runner and the lookups at it; seed
 * it through POST /__emulator/resources {name, policy} and /__emulator/import-jobs {job}.
 */
import { GoogleApiEmulator } from './emulator';

async function main(): Promise<void> {
  const emulator = await GoogleApiEmulator.start({ port: Number(process.argv[2] ?? 0), log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`Google API emulator listening at ${emulator.url}\n`);
  for (const [name, value] of Object.entries(emulator.env())) process.stdout.write(`export ${name}=${value}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
