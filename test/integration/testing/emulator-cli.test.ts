/**
 * The emulator as a program (`cdktf-google-iam-emulator`), for tests written
 * in other languages: it prints the environment for the provider and
 * terraform, and is seeded and inspected over its HTTP admin API. The Python
 * test drives it the way a pytest suite would, with nothing but the standard library.
 */
import { spawn, spawnSync } from 'child_process';
import * as os from 'os';
import * as path from 'path';

jest.setTimeout(60_000);

const CLI = path.join(__dirname, '..', '..', '..', 'lib', 'testing', 'emulator', 'cli.js');

test('the CLI prints the environment (as JSON with --json) and serves until stopped', async () => {
  const child = spawn(process.execPath, [CLI, '--json', '--services', 'secretmanager'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const { url, env } = JSON.parse(line) as { url: string; env: Record<string, string> };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Exactly what the README says it prints.
    expect(env).toEqual({
      CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: `${url}/networksecurity/`,
      CLOUDSDK_API_ENDPOINT_OVERRIDES_DATAMIGRATION: `${url}/datamigration/`,
      CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER: `${url}/migrationcenter/`,
      CLOUDSDK_API_ENDPOINT_OVERRIDES_CLOUDRESOURCEMANAGER: `${url}/cloudresourcemanager/`,
      CLOUDSDK_API_ENDPOINT_OVERRIDES_SECRETMANAGER: `${url}/secretmanager/`,
      GOOGLE_OAUTH_ACCESS_TOKEN: 'emulator-access-token',
      METADATA_SERVER_DETECTION: 'none',
    });

    const name = 'projects/p/secrets/db-password';
    const seeded = await fetch(`${url}/__emulator/resources`, {
      method: 'POST',
      body: JSON.stringify({
        name,
        policy: { bindings: [{ role: 'roles/secretmanager.secretAccessor', members: ['user:a@example.com'] }] },
      }),
    });
    expect(seeded.status).toBe(200);
    // Secret Manager's getIamPolicy is a GET with the version in the query, as Google publishes it.
    const read = await fetch(
      `${env.CLOUDSDK_API_ENDPOINT_OVERRIDES_SECRETMANAGER}v1/${name}:getIamPolicy?options.requestedPolicyVersion=3`,
      {
        headers: { Authorization: `Bearer ${env.GOOGLE_OAUTH_ACCESS_TOKEN}` },
      },
    );
    expect(await read.json()).toMatchObject({
      bindings: [{ role: 'roles/secretmanager.secretAccessor', members: ['user:a@example.com'] }],
    });
  } finally {
    child.kill('SIGTERM');
  }
});

test('--latency-ms holds each API answer that long, as a round trip to Google does (the set-up of docs/performance.md)', async () => {
  const child = spawn(process.execPath, [CLI, '--json', '--latency-ms', '400'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const { env } = JSON.parse(line) as { env: Record<string, string> };
    const name = 'projects/p-123456/locations/global/authorizationPolicies/ap';
    const started = Date.now();
    const read = await fetch(`${env.CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY}v1/${name}:getIamPolicy`, {
      headers: { Authorization: `Bearer ${env.GOOGLE_OAUTH_ACCESS_TOKEN}` },
    });
    expect(read.status).toBe(404); // no such resource yet: answered, after the latency
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  } finally {
    child.kill('SIGTERM');
  }
});

describe('the command line', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });

  test.each(['--help', '-h'])('%s prints the usage to stdout and exits 0', (flag) => {
    const { status, stdout, stderr } = run(flag);
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    expect(stdout).toMatch(
      /^usage: cli \[--port N\] \[--services NAME,\.\.\.\] \[--read-lag-ms N\] \[--latency-ms N\] \[--accept-any-role\] \[--json\] \[--log\]\n/,
    );
    expect(stdout).toContain('  --accept-any-role    accept any role in setIamPolicy (default: as Google, a role it does not\n');
    expect(stdout).toContain("  --read-lag-ms N      reads lag writes by N ms, as Google's IAM reads may (default: 0)\n");
    expect(stdout).toContain(
      '  --latency-ms N       wait N ms before each API answer, as a network round trip to Google does (default: 0)\n',
    );
    expect(stdout).toContain('  -h, --help           print this help and exit\n');
  });

  test.each<[string[], RegExp]>([
    [['--bogus'], /^cli: Unknown option '--bogus'/],
    [['-x'], /^cli: Unknown option '-x'/],
    [['--port'], /^cli: Option '--port <value>' argument missing/],
    [['--port', 'eighty'], /^cli: --port: expected 0 to 65535, got "eighty"/],
    [['--read-lag-ms', 'soon'], /^cli: --read-lag-ms: expected a non-negative number, got "soon"/],
    [['--latency-ms', 'slow'], /^cli: --latency-ms: expected a non-negative number, got "slow"/],
    [['serve'], /^cli: Unexpected argument 'serve'/],
  ])('%j prints the problem and the usage to stderr and exits 2', (args, problem) => {
    const { status, stdout, stderr } = run(...args);
    expect({ status, stdout }).toEqual({ status: 2, stdout: '' });
    expect(stderr).toMatch(problem);
    expect(stderr).toContain('\n\nusage: cli [--port N]');
  });
});

const python = spawnSync('python3', ['--version']).status === 0;
if (!python) {
  console.log('emulator-cli: the Python test is skipped: python3 is not on the PATH');
}

(python ? test : test.skip)('a Python test starts the emulator, seeds it, and reads the policy and the write log over HTTP', () => {
  const script = `
import json, subprocess, sys, urllib.request

proc = subprocess.Popen(["node", ${JSON.stringify(CLI)}, "--json"], stdout=subprocess.PIPE, text=True)
try:
    started = json.loads(proc.stdout.readline())
    url, env = started["url"], started["env"]

    def call(method, path, body=None, token=None):
        request = urllib.request.Request(url + path, method=method, data=None if body is None else json.dumps(body).encode())
        if token:
            request.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read() or b"{}")

    name = "projects/demo-project/locations/global/authorizationPolicies/from-python"
    call("POST", "/__emulator/resources", {"name": name, "policy": {"bindings": [{"role": "roles/networksecurity.admin", "members": ["user:owner@example.com"]}]}})
    token = env["GOOGLE_OAUTH_ACCESS_TOKEN"]
    policy = call("GET", "/networksecurity/v1/" + name + ":getIamPolicy?options.requestedPolicyVersion=3", token=token)
    policy["bindings"].append({"role": "roles/networksecurity.viewer", "members": ["user:python@example.com"]})
    call("POST", "/networksecurity/v1/" + name + ":setIamPolicy", {"policy": policy, "updateMask": "bindings,etag,version"}, token=token)
    after = call("GET", "/__emulator/policies/" + name)
    writes = call("GET", "/__emulator/writes")
    print(json.dumps({"roles": [b["role"] for b in after["bindings"]], "writes": len(writes)}))
finally:
    proc.terminate()
`;
  const result = spawnSync('python3', ['-c', script], { encoding: 'utf8', timeout: 30_000, cwd: os.tmpdir() });
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  expect(JSON.parse(result.stdout.trim())).toEqual({
    roles: ['roles/networksecurity.admin', 'roles/networksecurity.viewer'],
    writes: 1,
  });
});
