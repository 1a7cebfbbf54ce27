/**
 * The entry of dist/runner.js. Terraform starts a fresh `node` for every
 * grant, and compiling the bundled runner (google-auth-library included) is a
 * large share of its start-up, so the compiled code is cached with V8's code
 * cache (Node 20 has no module compile cache). A missing, stale or rejected
 * cache only costs the normal compile.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
import { RUNNER_ENV } from './runner-env';

// esbuild inlines the minified runner bundle here as text (package.json: bundle:runner).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const source = require('../../dist/runner-main.txt') as string;

function cacheFile(): string | undefined {
  try {
    const root = process.env[RUNNER_ENV.stateDir] ?? path.join(os.tmpdir(), 'cdktf-google-iam');
    const key = createHash('sha256').update(source).update(process.version).update(process.arch).digest('hex').slice(0, 24);
    return path.join(root, 'code-cache', `runner-${key}.bin`);
  } catch {
    return undefined;
  }
}

function readCache(file: string | undefined): Buffer | undefined {
  try {
    return file ? fs.readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** Written once, after a run, so it holds the functions that run needed; atomic, for parallel runners. */
function writeCache(file: string, script: vm.Script): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, script.createCachedData());
    fs.renameSync(temp, file);
  } catch {
    // A cache is an optimisation; never fail a grant over it.
  }
}

const file = cacheFile();
const cachedData = readCache(file);
const script = new vm.Script(require('module').wrap(source) as string, { filename: __filename, cachedData });
if (file && (!cachedData || script.cachedDataRejected)) process.once('exit', () => writeCache(file, script));
(script.runInThisContext() as (...args: unknown[]) => void)(exports, require, module, __filename, __dirname);
