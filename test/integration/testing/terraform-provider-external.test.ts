/**
 * The stand-in of hashicorp/external: its codecs in-process, and the bundled
 * provider driven by the real `terraform` binary, offline.
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ExternalProviderInstallation, ExternalProviderStandIn } from '../../../tools/terraform-provider-external';
import { readDataSource } from '../../../tools/terraform-provider-external/data-source';
import { goMarshalStringMap, goUnmarshalStringMap } from '../../../tools/terraform-provider-external/go-json';
import { CtyType, UNKNOWN, Unknown, decodeCty, encodeCty, isWhollyKnown } from '../../../tools/terraform-provider-external/msgpack-cty';
import { lookPath } from '../../../tools/terraform-provider-external/program';
import { generateServerCertificate } from '../../../tools/terraform-provider-external/tls';
import { ExternalWorkspace, ensureBundle, errorBlock, flat, rawCall, startPlugin } from './external-provider-workspace';

jest.setTimeout(60_000);

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('msgpack cty codec', () => {
  const stringList: CtyType = ['list', 'string'];
  const stringMap: CtyType = ['map', 'string'];

  it('encodes strings, lists, maps and null as go-cty does', () => {
    expect(hex(encodeCty('hi', 'string'))).toBe('a26869');
    expect(hex(encodeCty(null, 'string'))).toBe('c0');
    expect(hex(encodeCty(['a', null], stringList))).toBe('92a161c0');
    // Map keys sorted, as go-cty writes them.
    expect(
      hex(
        encodeCty(
          new Map([
            ['b', '2'],
            ['a', '1'],
          ]),
          stringMap,
        ),
      ),
    ).toBe('82a161a131a162a132');
    expect(hex(encodeCty({ b: true, a: 1.5 }, ['object', { a: 'number', b: 'bool' }]))).toBe('82a161cb3ff8000000000000a162c3');
  });

  it('decodes what it encodes, and absent object attributes as null', () => {
    const type: CtyType = ['object', { program: stringList, query: stringMap, working_dir: 'string' }];
    const value = {
      program: ['node', '-e', 'x'],
      query: new Map([
        ['constructor', 'plain data'],
        ['a', 'é ✓'],
      ]),
      working_dir: null,
    };
    expect(decodeCty(encodeCty(value, type), type)).toEqual(value);
    // The one key @msgpack/msgpack will not decode: a clear error, not a crash (encoding it works).
    const proto = encodeCty(new Map([['__proto__', 'x']]), stringMap);
    expect(hex(proto)).toBe('81a95f5f70726f746f5f5fa178');
    expect(() => decodeCty(proto, stringMap)).toThrow('the map key "__proto__" is not supported by this stand-in provider');
    expect(decodeCty(Buffer.from('81a170c0', 'hex'), ['object', { p: 'string', q: 'string' }])).toEqual({ p: null, q: null });
  });

  it('reads unknowns: plain (ext 0), refined (ext 12), and inside collections', () => {
    expect(decodeCty(Buffer.from('d40000', 'hex'), 'string')).toBe(UNKNOWN);
    // {1: false} = not null; {2: "ab"} = string prefix.
    const refined = decodeCty(Buffer.from('c707' + '0c' + '8201c202a26162', 'hex'), 'string');
    expect(refined).toEqual(new Unknown({ notNull: true, stringPrefix: 'ab' }));
    const map = decodeCty(Buffer.from('82a161d40000a162a178', 'hex'), stringMap) as Map<string, unknown>;
    expect(map.get('a')).toBe(UNKNOWN);
    expect(map.get('b')).toBe('x');
    expect(isWhollyKnown(map as never)).toBe(false);
    expect(isWhollyKnown({ a: ['x'], b: new Map([['k', 'v']]) })).toBe(true);
  });

  it('writes unknowns as go-cty does, refinements included', () => {
    expect(hex(encodeCty(UNKNOWN, stringList))).toBe('d40000');
    const bytes = encodeCty(new Unknown({ notNull: true, lengthMin: 1 }), stringList);
    expect(hex(bytes)).toBe('c705' + '0c' + '8201c20501');
    expect(decodeCty(bytes, stringList)).toEqual(new Unknown({ notNull: true, lengthMin: 1 }));
  });

  it('rejects values of the wrong type and attributes not in the schema', () => {
    expect(() => decodeCty(encodeCty('x', 'string'), stringList)).toThrow(/expected a list, got string/);
    expect(() => decodeCty(Buffer.from('81a178a131', 'hex'), ['object', { y: 'string' }])).toThrow(/unsupported attribute "x"/);
    expect(() => encodeCty(['x'] as never, 'string')).toThrow(/expected a string/);
  });
});

describe('Go JSON steps', () => {
  it('marshals the query as Go does: sorted keys, HTML-safe escapes', () => {
    expect(
      goMarshalStringMap(
        new Map([
          ['b', '<&>\u2028'],
          ['a', 'line\nbreak "q"'],
          ['é', ''],
        ]),
      ),
    ).toBe('{"a":"line\\nbreak \\"q\\"","b":"\\u003c\\u0026\\u003e\\u2028","é":""}');
    expect(goMarshalStringMap(new Map())).toBe('{}');
  });

  it.each([
    ['{"a": 1}', 'json: cannot unmarshal number into Go value of type string'],
    ['{"a": {"b": "c"}}', 'json: cannot unmarshal object into Go value of type string'],
    ['[]', 'json: cannot unmarshal array into Go value of type map[string]string'],
    ['"x"', 'json: cannot unmarshal string into Go value of type map[string]string'],
    ['true', 'json: cannot unmarshal bool into Go value of type map[string]string'],
    ['not json', "invalid character 'o' in literal null (expecting 'u')"],
    ['', 'unexpected end of JSON input'],
    ['{"a": "b"', 'unexpected end of JSON input'],
    ['{"a": "b",}', "invalid character '}' looking for beginning of object key string"],
    ['{"a" "b"}', "invalid character '\"' after object key"],
    ['{"a": "b"} x', "invalid character 'x' after top-level value"],
    ['{"a": 01}', "invalid character '1' after object key:value pair"],
    ['{"a": "\t"}', "invalid character '\\t' in string literal"],
  ])("rejects %j with Go's error", (output, error) => {
    expect(goUnmarshalStringMap(Buffer.from(output))).toEqual({ ok: false, error });
  });

  it('accepts what Go accepts: null members as "", a null document, duplicates (last wins), escapes', () => {
    expect(goUnmarshalStringMap(Buffer.from(' {"a": null, "b": "1", "b": "2", "c": "\\u00e9\\ud83d\\ude00"}\n'))).toEqual({
      ok: true,
      value: new Map([
        ['a', ''],
        ['b', '2'],
        ['c', 'é😀'],
      ]),
    });
    expect(goUnmarshalStringMap(Buffer.from('null'))).toEqual({ ok: true, value: null });
  });
});

describe('program lookup (Go exec.LookPath)', () => {
  it('finds programs on PATH, checks paths with a slash, and words errors as Go does', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookpath-'));
    try {
      const exe = path.join(dir, 'tool');
      fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(path.join(dir, 'plain'), '', { mode: 0o644 });
      expect(lookPath('tool', `/nonexistent${path.delimiter}${dir}`)).toEqual({ ok: true, path: exe });
      expect(lookPath(exe, '')).toEqual({ ok: true, path: exe });
      expect(lookPath('tool', '')).toEqual({ ok: false, error: 'exec: "tool": executable file not found in $PATH' });
      expect(lookPath(`${dir}/missing`)).toEqual({
        ok: false,
        error: `exec: "${dir}/missing": stat ${dir}/missing: no such file or directory`,
      });
      expect(lookPath(dir + '/')).toEqual({ ok: false, error: `exec: "${dir}/": is a directory` });
      if (process.getuid?.() !== 0) {
        expect(lookPath(`${dir}/plain`)).toEqual({ ok: false, error: `exec: "${dir}/plain": permission denied` });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('readDataSource in-process', () => {
  const config = (program: string[], extra: object = {}): Record<string, never> =>
    ({ id: null, program, query: null, result: null, working_dir: null, ...extra }) as never;

  it('runs the program without a shell, the query on stdin, and returns result and id "-"', async () => {
    const script =
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.stringify({stdin:s,args:JSON.stringify(process.argv.slice(1))})))";
    const result = await readDataSource(
      config([process.execPath, '-e', script, 'a b', '$HOME;|', ''], {
        query: new Map<string, unknown>([
          ['k', 'v'],
          ['dropped', null],
        ]),
      }),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.state?.id).toBe('-');
    // Empty program elements are dropped, as by the real provider.
    expect(result.state?.result).toEqual(
      new Map([
        ['stdin', '{"k":"v"}'],
        ['args', '["a b","$HOME;|"]'],
      ]),
    );
    expect(result.state?.program).toEqual([process.execPath, '-e', script, 'a b', '$HOME;|', '']);
  });

  it('reports a failed program with its stderr and exit status, and one without stderr', async () => {
    const failed = await readDataSource(config([process.execPath, '-e', "process.stderr.write('boom');process.exit(3)"]));
    expect(failed.diagnostics).toEqual([
      {
        severity: 'ERROR',
        summary: 'External Program Execution Failed',
        detail: `The data source received an unexpected error while attempting to execute the program.\n\nProgram: ${process.execPath}\nError Message: boom\nState: exit status 3`,
        attribute: 'program',
      },
    ]);
    const silent = await readDataSource(config([process.execPath, '-e', 'process.exit(1)']));
    expect(silent.diagnostics[0].detail).toContain('The program was executed, however it returned no additional error messaging.');
    expect(silent.diagnostics[0].detail).toContain('State: exit status 1');
    const badDir = await readDataSource(config([process.execPath, '-e', '0'], { working_dir: '/nonexistent-dir' }));
    expect(badDir.diagnostics[0].detail).toContain('State: chdir /nonexistent-dir: no such file or directory');
  });

  it('kills the program when aborted (StopProvider)', async () => {
    const controller = new AbortController();
    const pending = readDataSource(config([process.execPath, '-e', 'setTimeout(()=>{},60000)']), controller.signal);
    setTimeout(() => controller.abort(), 200);
    const result = await pending;
    expect(result.diagnostics[0].detail).toContain('State: signal: killed');
  });

  it('reports a program list with only empty elements as missing', async () => {
    const result = await readDataSource(config(['', '']));
    expect(result.diagnostics[0].summary).toBe('External Program Missing');
  });
});

describe('TLS certificate', () => {
  it('is a self-signed CA certificate for localhost, printed as base64 DER without padding', () => {
    const started = process.hrtime.bigint();
    const cert = generateServerCertificate();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const x509 = new crypto.X509Certificate(cert.certPem);
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(x509.ca).toBe(true);
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(cert.handshakeCert).not.toMatch(/=/);
    expect(Buffer.from(cert.handshakeCert, 'base64').equals(x509.raw)).toBe(true);
    expect(ms).toBeLessThan(200);
  });
});

describe('ExternalProviderStandIn with the real terraform binary (offline)', () => {
  let bundle: string;
  let installDir: string;
  let installation: ExternalProviderInstallation;
  const workspaces: ExternalWorkspace[] = [];
  const workspace = (config: object): ExternalWorkspace => {
    const ws = new ExternalWorkspace(installation, config);
    workspaces.push(ws);
    return ws;
  };

  beforeAll(() => {
    bundle = ensureBundle();
    installDir = fs.mkdtempSync(path.join(os.tmpdir(), 'external-stand-in-'));
    installation = ExternalProviderStandIn.install(installDir);
  });

  afterAll(() => {
    for (const ws of workspaces) ws.dispose();
    fs.rmSync(installDir, { recursive: true, force: true });
  });

  it('installs a filesystem mirror and a CLI configuration, idempotently', () => {
    expect(installation.version).toBe('2.3.5');
    expect(installation.env.TF_CLI_CONFIG_FILE).toBe(installation.cliConfigFile);
    expect(fs.readFileSync(installation.cliConfigFile, 'utf8')).toContain(`path    = ${JSON.stringify(installation.mirrorDir)}`);
    const platform = `${process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`;
    const launcher = path.join(
      installation.mirrorDir,
      'registry.terraform.io/hashicorp/external/2.3.5',
      platform,
      'terraform-provider-external_v2.3.5',
    );
    expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
    const before = fs.statSync(launcher).mtimeMs;
    expect(ExternalProviderStandIn.install(installDir)).toEqual(installation);
    expect(fs.statSync(launcher).mtimeMs).toBe(before);
  });

  it('says how to build the provider when the bundle is missing', () => {
    const spy = jest.spyOn(ExternalProviderStandIn, 'bundlePath').mockReturnValue('/nonexistent/terraform-provider-external.js');
    try {
      expect(() => ExternalProviderStandIn.install()).toThrow(/npm run bundle:tools/);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses to start outside Terraform (no magic cookie), as go-plugin does', () => {
    const run = spawnSync(process.execPath, [bundle], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('This binary is a plugin.');
    expect(run.stdout).toBe('');
  });

  it('starts quickly: handshake line with its TLS certificate', async () => {
    const client = generateServerCertificate(); // any certificate will do as Terraform's client certificate
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const plugin = await startPlugin(bundle, client.certPem);
      plugin.child.kill('SIGKILL');
      expect(plugin.handshake).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|[A-Za-z0-9+/]{100,}$/);
      times.push(plugin.ms);
    }
    times.sort((a, b) => a - b);
    console.log(`stand-in provider start to handshake: ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')}`);
    expect(times[1]).toBeLessThan(1000); // ~150 ms on 2 cores; a loose bound for a busy CI machine
  });

  it("requires Terraform's client certificate, answers the health check, and exits on go-plugin Shutdown", async () => {
    const terraformCert = generateServerCertificate();
    const plugin = await startPlugin(bundle, terraformCert.certPem);
    try {
      const stranger = generateServerCertificate();
      await expect(rawCall(plugin, stranger, '/grpc.health.v1.Health/Check', Buffer.from('0a06706c7567696e', 'hex'))).rejects.toThrow();
      // HealthCheckRequest{service: "plugin"} -> HealthCheckResponse{status: SERVING (1)}
      const health = await rawCall(plugin, terraformCert, '/grpc.health.v1.Health/Check', Buffer.from('0a06706c7567696e', 'hex'));
      expect(health.toString('hex')).toBe('0801');
      const started = Date.now();
      await rawCall(plugin, terraformCert, '/plugin.GRPCController/Shutdown', Buffer.alloc(0));
      expect(await plugin.exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      plugin.child.kill('SIGKILL');
    }
  });

  it('reads data sources: query on stdin, result, id, working_dir, arguments without a shell', async () => {
    const echo =
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(JSON.stringify({stdin:s,cwd:process.cwd(),args:JSON.stringify(process.argv.slice(1))})))";
    const ws = workspace({
      data: {
        external: {
          x: { program: ['node', '-e', echo, 'a b', '$HOME;|'], query: { a: '1', html: '<&>', dropped: null } },
          wd: { program: ['node', '-e', echo], working_dir: '${path.module}/sub' },
        },
      },
      output: {
        x: { value: '${data.external.x.result}' },
        x_id: { value: '${data.external.x.id}' },
        wd: { value: '${data.external.wd.result}' },
      },
    });
    fs.mkdirSync(path.join(ws.dir, 'sub'));
    await ws.init();

    const started = Date.now();
    const plan = await ws.terraform('plan', '-input=false', '-no-color');
    const planMs = Date.now() - started;
    console.log(`terraform plan with the stand-in (2 data sources): ${planMs} ms`);
    expect(plan.code).toBe(0);
    expect(plan.output).toContain('data.external.x: Read complete');

    const apply = await ws.terraform('apply', '-auto-approve', '-input=false', '-no-color');
    expect(apply.code).toBe(0);
    const outputs = await ws.outputs();
    const x = outputs.x.value as Record<string, string>;
    // Go's json.Marshal bytes: sorted keys, HTML-safe escapes, null members left out.
    expect(x.stdin).toBe('{"a":"1","html":"\\u003c\\u0026\\u003e"}');
    expect(JSON.parse(x.args)).toEqual(['a b', '$HOME;|']);
    expect(fs.realpathSync(x.cwd)).toBe(fs.realpathSync(ws.dir));
    expect(outputs.x_id.value).toBe('-');
    const wd = outputs.wd.value as Record<string, string>;
    expect(wd.stdin).toBe('{}');
    expect(fs.realpathSync(wd.cwd)).toBe(fs.realpathSync(path.join(ws.dir, 'sub')));
  });

  describe('failures, as the real provider reports them', () => {
    let plan: { code: number; output: string };

    beforeAll(async () => {
      const ws = workspace({
        data: {
          external: {
            fail: { program: ['node', '-e', "process.stderr.write('boom');process.exit(1)"] },
            number: { program: ['node', '-e', 'process.stdout.write(\'{"a": 1}\')'] },
            array: { program: ['node', '-e', "process.stdout.write('[]')"] },
            text: { program: ['node', '-e', "process.stdout.write('not json')"] },
            missing: { program: ['no-such-program-for-the-stand-in'] },
          },
        },
      });
      await ws.init();
      plan = await ws.terraform('plan', '-input=false', '-no-color');
    });

    it('fails the plan', () => {
      expect(plan.code).toBe(1);
    });

    it('exit status 1 with stderr "boom": External Program Execution Failed, with the stderr', () => {
      const block = flat(errorBlock(plan.output, 'data.external.fail'));
      expect(block).toContain('Error: External Program Execution Failed');
      expect(block).toContain('The data source received an unexpected error while attempting to execute the program.');
      expect(block).toContain('Error Message: boom');
      expect(block).toContain('State: exit status 1');
    });

    it.each([
      ['number', 'json: cannot unmarshal number into Go value of type string', '{\\"a\\": 1}'],
      ['array', 'json: cannot unmarshal array into Go value of type map[string]string', '[]'],
      ['text', "invalid character 'o' in literal null (expecting 'u')", 'not json'],
    ])('output %s: Unexpected External Program Results, with the error and the output', (name, error, output) => {
      const block = flat(errorBlock(plan.output, `data.external.${name}`));
      expect(block).toContain('Error: Unexpected External Program Results');
      expect(block).toContain('Program output must be a JSON encoded map of string keys and string values.');
      expect(block).toContain(`Result Error: ${error}`);
      expect(block).toContain(`Program Output: "${output}"`);
    });

    it('missing program: External Program Lookup Failed', () => {
      const block = flat(errorBlock(plan.output, 'data.external.missing'));
      expect(block).toContain('Error: External Program Lookup Failed');
      expect(block).toContain('Error: exec: "no-such-program-for-the-stand-in": executable file not found in $PATH');
    });
  });

  it('validates an empty program list at validate time', async () => {
    const ws = workspace({ data: { external: { empty: { program: [] } } } });
    await ws.init();
    const validate = await ws.terraform('validate', '-no-color');
    expect(validate.code).toBe(1);
    expect(flat(validate.output)).toContain('Error: Invalid Attribute Value');
    expect(flat(validate.output)).toContain('Attribute program list must contain at least 1 elements, got: 0');
  });

  it('defers a read whose query is unknown at plan time to apply', async () => {
    const echo = "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(s))";
    const ws = workspace({
      resource: { terraform_data: { t: { input: 'x' } } },
      data: { external: { x: { program: ['node', '-e', echo], query: { id: '${terraform_data.t.id}', fixed: 'f' } } } },
      output: { result: { value: '${data.external.x.result}' }, tid: { value: '${terraform_data.t.id}' } },
    });
    await ws.init();
    const plan = await ws.terraform('plan', '-input=false', '-no-color');
    expect(plan.code).toBe(0);
    expect(plan.output).toContain('data.external.x will be read during apply');
    const apply = await ws.terraform('apply', '-auto-approve', '-input=false', '-no-color');
    expect(apply.code).toBe(0);
    const outputs = await ws.outputs();
    expect(outputs.result.value).toEqual({ id: outputs.tid.value, fixed: 'f' });
  });
});
