/**
 * The protocol layer with the real terraform: the toy provider (test/support/toy-provider) bundled,
 * laid out by installProvider in a configuration folder, run through init, plan, apply, import,
 * drift, validation errors, logging, interruption and destroy.
 */
import { spawn } from 'child_process';
import { generateServerCertificate } from '../../../lib/provider/protocol/tls';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../../lib/provider/protocol/plugin-server';
import { TOY_TOKEN, ToyWorkspace } from '../../support/toy-provider/toy-workspace';
import * as fs from 'fs';
import * as path from 'path';

jest.setTimeout(120_000);

let workspace: ToyWorkspace;
beforeAll(() => {
  workspace = ToyWorkspace.create();
});
afterAll(() => workspace.remove());

const THING_A = { name: 'a', value: 'hello', labels: ['x', 'y'], tags: [{ key: 'k', value: 'v' }], options: { mode: 'm' } };

describe('the toy provider under terraform', () => {
  test('init installs it offline from terraform.d/plugins with no warning and leaves the pre-written lock file as it is', async () => {
    workspace.configure({ a: THING_A });
    const lockFile = path.join(workspace.dir, '.terraform.lock.hcl');
    const before = fs.readFileSync(lockFile);
    const init = await workspace.terraform(['init', '-input=false']);
    expect(init.code).toBe(0);
    expect(init.output).toContain('Installed cdktf-google-iam-test/toy v0.0.1 (unauthenticated)');
    expect(init.output).not.toContain('Warning');
    expect(fs.readFileSync(lockFile).equals(before)).toBe(true);
  });

  test('plan, apply, then a plan with no changes', async () => {
    const plan = await workspace.terraform(['plan', '-input=false']);
    expect(plan.output).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    expect(plan.output).toMatch(/\+ revision = \(known after apply\)/);
    const apply = await workspace.terraform(['apply', '-auto-approve', '-input=false']);
    expect(apply.code).toBe(0);
    expect(workspace.store).toEqual({ a: { value: 'hello', labels: ['x', 'y'], revision: 1 } });
    const again = await workspace.terraform(['plan', '-input=false', '-detailed-exitcode']);
    expect(again.code).toBe(0);
    expect(again.output).toContain('No changes.');
  });

  test('a change made outside terraform is read and planned back (exit code 2); apply repairs it as an update', async () => {
    workspace.writeStore({ a: { ...workspace.store.a, value: 'changed behind terraform' } });
    const plan = await workspace.terraform(['plan', '-input=false', '-detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.output).toContain('~ value    = "changed behind terraform" -> "hello"');
    expect(plan.output).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    await workspace.terraform(['apply', '-auto-approve', '-input=false']);
    expect(workspace.store.a).toEqual({ value: 'hello', labels: ['x', 'y'], revision: 2 });
  });

  test('an import block imports an existing thing, which then plans no change', async () => {
    workspace.writeStore({ ...workspace.store, b: { value: 'existing', labels: null, revision: 7 } });
    workspace.configure({ a: THING_A, b: { name: 'b', value: 'existing' } }, { import: [{ to: 'toy_thing.b', id: 'b' }] });
    const apply = await workspace.terraform(['apply', '-auto-approve', '-input=false']);
    expect(apply.output).toContain('Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
    expect(workspace.store.b.revision).toBe(7);
    const plan = await workspace.terraform(['plan', '-input=false', '-detailed-exitcode']);
    expect(plan.code).toBe(0);
  });

  test("a validation error names the attribute, and terraform shows the configuration's line", async () => {
    workspace.configure({ a: { ...THING_A, tags: [{ key: 'k' }, { key: 'bad' }] }, b: { name: 'b', value: 'invalid' } });
    const plan = await workspace.terraform(['plan', '-input=false']);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(
      /Error: Bad tag key\s+with toy_thing\.a,\s+on main\.tf\.json line \d+, in resource\.toy_thing\.a\.tags\[1\]:\s+\d+:\s+"key": "bad"/,
    );
    expect(plan.output).toMatch(
      /Error: Invalid value\s+with toy_thing\.b,\s+on main\.tf\.json line \d+, in resource\.toy_thing\.b:\s+\d+:\s+"value": "invalid"/,
    );
  });

  test('TF_LOG=trace shows the calls and the configuration, never the sensitive token', async () => {
    workspace.configure({ a: THING_A, b: { name: 'b', value: 'existing' } });
    const plan = await workspace.terraform(['plan', '-input=false'], { TF_LOG: 'trace' });
    expect(plan.code).toBe(0);
    expect(plan.output).toMatch(/provider\.terraform-provider-toy_v0\.0\.1: configuring the provider: .*token:\(sensitive value\)/);
    expect(plan.output).toContain('tf_rpc=ReadResource');
    expect(plan.output).not.toContain(TOY_TOKEN);
    // go-plugin finds every service it asks for (stdio, broker, controller, health).
    // Terraform's go-plugin client sometimes logs a race of its own as it reaps a plugin that exited (its stdout
    // scanner reads a pipe Wait() already closed: hashicorp/go-plugin#298, fixed upstream by #299); any other
    // provider or plugin error or warning fails the test.
    const goPluginReapRace = /\[ERROR\] provider: error encountered while scanning stdout: error="read \|0: file already closed"/;
    const problems = plan.output
      .split('\n')
      .filter((line) => /\[(ERROR|WARN)\] +(provider|plugin)/.test(line) && !goPluginReapRace.test(line));
    expect(problems).toEqual([]);
  });

  test('each provider process exits as soon as terraform shuts it down (no 2 s wait)', async () => {
    const started = Date.now();
    const plan = await workspace.terraform(['plan', '-input=false'], { TF_LOG: 'trace' });
    const wallMs = Date.now() - started;
    const lifetimes = providerLifetimes(plan.output);
    expect(lifetimes.length).toBeGreaterThanOrEqual(2);
    for (const lifetime of lifetimes) expect(lifetime.closeToExitMs).toBeLessThan(500);
    // Three provider processes per plan: a 2 s wait each would take the plan past 6 s.
    expect(wallMs).toBeLessThan(6000);
    process.stdout.write(
      `toy plan: ${wallMs} ms wall, ${lifetimes.length} provider processes, ` +
        `handshake ${lifetimes.map((l) => l.handshakeMs).join('/')} ms, Close to exit ${lifetimes.map((l) => l.closeToExitMs).join('/')} ms\n`,
    );
  });

  test('SIGINT to terraform: StopProvider aborts the slow create at once, and nothing is written', async () => {
    workspace.configure({ a: THING_A, b: { name: 'b', value: 'existing' }, slow: { name: 'slow', value: 'v', delay_ms: 30_000 } });
    const child = workspace.start(['apply', '-auto-approve', '-input=false']);
    let output = '';
    const creating = new Promise<void>((resolve) => {
      const onData = (d: Buffer): void => {
        output += d;
        if (output.includes('toy_thing.slow: Creating...')) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
    });
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    await creating;
    // Terraform prints "Creating..." before it sends ApplyResourceChange; interrupted in between (seen on a loaded
    // machine), it halts without calling the provider at all. The create is 30 s long: a second in, it is running.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const interrupted = Date.now();
    child.kill('SIGINT');
    const code = await exited;
    const stopMs = Date.now() - interrupted;
    expect(code).toBe(1);
    expect(stopMs).toBeLessThan(5000);
    expect(output).toContain('Interrupt received.');
    expect(output).toMatch(/Error: Interrupted\s+with toy_thing\.slow/);
    expect(workspace.store.slow).toBeUndefined();
    process.stdout.write(`SIGINT to exit with a 30 s create aborted: ${stopMs} ms\n`);
  });

  test('destroy removes every thing', async () => {
    workspace.configure({ a: THING_A, b: { name: 'b', value: 'existing' } });
    const destroy = await workspace.terraform(['destroy', '-auto-approve', '-input=false']);
    expect(destroy.output).toContain('Destroy complete! Resources: 2 destroyed.');
    expect(workspace.store).toEqual({});
  });
});

test("the provider's cold start: exec to the handshake line", async () => {
  // The toy's executable: an sh script running its bundle on this Node.js (test/support/bundle-test-provider.ts).
  const [{ path: executable }] = Object.values(workspace.pkg.executables);
  const clientCert = generateServerCertificate().certPem;
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = process.hrtime.bigint();
    const child = spawn(executable!, [], {
      env: { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '6', PLUGIN_CLIENT_CERT: clientCert },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    expect(line).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|[A-Za-z0-9+/]+\n$/);
    child.kill();
    await new Promise((resolve) => child.on('close', resolve));
  }
  process.stdout.write(`toy provider cold start (exec to handshake line): ${times.map((t) => t.toFixed(0)).join(', ')} ms\n`);
});

/** Each provider process in a TF_LOG=trace output: its handshake time and how long it lived after terraform closed it. */
function providerLifetimes(log: string): { handshakeMs: number; closeToExitMs: number }[] {
  const at = (line: string): number => Date.parse(line.slice(0, line.indexOf(' ')));
  const lines = log.split('\n');
  const lifetimes: { handshakeMs: number; closeToExitMs: number }[] = [];
  let start = 0;
  let handshake = 0;
  let close = 0;
  for (const line of lines) {
    if (line.includes('[DEBUG] provider: starting plugin:')) start = at(line);
    else if (line.includes('[DEBUG] provider: using plugin: version=6')) handshake = at(line);
    else if (line.includes('GRPCProvider.v6: Close')) close = at(line);
    else if (line.includes('[INFO]  provider: plugin process exited:') && close > 0) {
      lifetimes.push({ handshakeMs: handshake - start, closeToExitMs: at(line) - close });
      close = 0;
    }
  }
  return lifetimes;
}
