/**
 * The entry of dist/runner/runner.js; the bundled runner (google-auth-library
 * included) sits beside it as main.js. Terraform starts a fresh `node` for
 * every grant, and compiling that bundle is a large share of its start-up,
 * so the compiled code is kept in V8's code cache, in a cache of our own:
 * Node's module compile cache (`NODE_COMPILE_CACHE` from 22.1,
 * `module.enableCompileCache()` from 22.8) is missing from early Node 22
 * releases, which `engines` allows, and does not authenticate what it reads
 * (see below). The bundle is a separate file, not a string in this one,
 * because Node compiles this file without any cache: a 380 KB string literal
 * alone cost about 20 ms per grant. A missing, stale or rejected cache only
 * costs the normal compile.
 *
 * V8 checks little of a cache before running it (magic, version, flags,
 * source length), so code compiled from another source would run here with
 * the deployer's credentials. The cache is therefore authenticated: it is
 * stored with an HMAC-SHA256 over the bundle's digest and the cache bytes,
 * keyed by a random per-user key in the private state folder (state-dir.ts),
 * and anything that does not verify is ignored.
 *
 * `apply` and `remove` (Terraform's provisioners) load none of it: they only
 * start and supervise the worker that does the grant's work (supervisor.ts),
 * which is this file again with `grant-worker`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vm from 'vm';
import type * as RunnerMain from './main';
import { StateDir } from './state-dir';
import { superviseGrant } from './supervisor';

const MAC_BYTES = 32;

interface CodeCache {
  readonly state: StateDir;
  readonly file: string;
  readonly key: Buffer;
  readonly digest: Buffer;
}

function openCache(source: string): CodeCache | undefined {
  try {
    const state = StateDir.open(process.env);
    const dir = state.dir('code-cache');
    const keyFile = path.join(dir, 'key');
    let key = state.readFile(keyFile);
    if (key?.length !== MAC_BYTES) {
      state.writeFile(keyFile, randomBytes(MAC_BYTES));
      key = state.readFile(keyFile)!;
    }
    const digest = createHash('sha256').update(source).update(process.version).update(process.arch).digest();
    return { state, file: path.join(dir, `runner-${digest.toString('hex').slice(0, 24)}.bin`), key, digest };
  } catch {
    // No usable state folder: run without a cache; the runner itself reports the folder's problem.
    return undefined;
  }
}

function mac(cache: CodeCache, data: Buffer): Buffer {
  return createHmac('sha256', cache.key).update(cache.digest).update(data).digest();
}

function readCache(cache: CodeCache | undefined): Buffer | undefined {
  try {
    const stored = cache?.state.readFile(cache.file);
    if (!cache || !stored || stored.length <= MAC_BYTES) return undefined;
    const data = stored.subarray(MAC_BYTES);
    return timingSafeEqual(stored.subarray(0, MAC_BYTES), mac(cache, data)) ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Written once, after a run that called Google, so it holds the functions
 * such a run needs (a runner whose edit another one batched never loads
 * google-auth-library); atomic, for parallel runners.
 */
function writeCache(cache: CodeCache, script: vm.Script): void {
  try {
    const data = script.createCachedData();
    cache.state.writeFile(cache.file, Buffer.concat([mac(cache, data), data]));
  } catch {
    // A cache is an optimisation; never fail a grant over it.
  }
}

/** Runs the bundle (main.js), from V8's code cache where one verifies. */
function runBundle(source: string): void {
  const cache = openCache(source);
  const cachedData = readCache(cache);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- Module.wrap is not in the module's typed exports
  const script = new vm.Script(require('module').wrap(source) as string, { filename: __filename, cachedData });
  (script.runInThisContext() as (...args: unknown[]) => void)(exports, require, module, __filename, __dirname);
  if (cache && (!cachedData || script.cachedDataRejected)) {
    const main = module.exports as Partial<typeof RunnerMain>;
    process.once('exit', () => {
      if (main.calledGoogle?.()) writeCache(cache, script);
    });
  }
}

// `apply`/`remove` (Terraform's provisioners) only supervise the worker that does the work: they never load the bundle.
const command = process.argv[2];
if (command === 'apply' || command === 'remove') {
  superviseGrant(command, __filename, (line) => process.stdout.write(`${line}\n`)).then(
    (ok) => process.exit(ok ? 0 : 1),
    (error: Error) => {
      process.stderr.write(`cdktf-google-iam: ${error.message}\n`);
      process.exit(1);
    },
  );
} else {
  runBundle(fs.readFileSync(path.join(__dirname, 'main.js'), 'utf8'));
}
