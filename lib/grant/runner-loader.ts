/**
 * The entry of dist/runner/runner.js; the bundled runner (google-auth-library
 * included) sits beside it as main.js. Terraform starts a fresh `node` for
 * every grant, and compiling that bundle is a large share of its start-up,
 * so the compiled code is kept in V8's code cache (Node 20 has no module
 * compile cache). The bundle is a separate file, not a string in this one,
 * because Node compiles this file without any cache: a 380 KB string literal
 * alone cost about 20 ms per grant. A missing, stale or rejected cache only
 * costs the normal compile.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
import type * as RunnerMain from './runner';
import { RUNNER_ENV } from './runner-env';

const source = fs.readFileSync(path.join(__dirname, 'main.js'), 'utf8');

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

/**
 * Written once, after a run that called Google, so it holds the functions
 * such a run needs (a runner whose edit another one batched never loads
 * google-auth-library); atomic, for parallel runners.
 */
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
(script.runInThisContext() as (...args: unknown[]) => void)(exports, require, module, __filename, __dirname);
if (file && (!cachedData || script.cachedDataRejected)) {
  const main = module.exports as Partial<typeof RunnerMain>;
  process.once('exit', () => {
    if (main.calledGoogle?.()) writeCache(file, script);
  });
}
