import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import { createInterface, type Interface } from 'readline';

/** `{"$jsii.byref": "fqn@id"}`: an object that lives in the kernel. */
export interface ObjRef {
  readonly '$jsii.byref': string;
  readonly '$jsii.interfaces'?: readonly string[];
}

/** A kernel error answer: `{error, name, stack}` (name: `@jsii/kernel.RuntimeError` for the library's own errors). */
export class KernelError extends Error {
  constructor(
    message: string,
    public readonly errorName: string | undefined,
    public readonly kernelStack: string | undefined,
  ) {
    super(message);
    this.name = 'KernelError';
  }
}

/** A struct passed by value, as the Python, Java, Go and .NET runtimes send one. */
export function struct(fqn: string, data: Record<string, unknown>): unknown {
  return { '$jsii.struct': { fqn, data } };
}

/** An enum member, as the runtimes send one. */
export function enumValue(fqn: string, member: string): unknown {
  return { '$jsii.enum': `${fqn}/${member}` };
}

/**
 * A client of `@jsii/runtime` speaking its JSON-lines protocol over the
 * process's stdin and stdout, exactly what the Python, Java, Go and .NET
 * runtimes do: one request line, one answer line (`{"ok": ...}` or
 * `{"error": ...}`). The runtime forwards the kernel's own console output to
 * stderr as `{"stdout"|"stderr": base64}` lines; they are kept for messages.
 * Requests are sent one at a time (the runtimes are synchronous too).
 */
export class JsiiKernel {
  public static async start(runtimeEntry: string, env: NodeJS.ProcessEnv, cwd: string): Promise<JsiiKernel> {
    const child = spawn(process.execPath, [runtimeEntry], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const kernel = new JsiiKernel(child);
    const hello = (await kernel.nextAnswer()) as { hello?: string };
    if (!hello.hello) throw new Error(`expected a hello from the jsii runtime, got ${JSON.stringify(hello)}`);
    kernel.hello = hello.hello;
    return kernel;
  }

  /** The runtime's greeting, e.g. `@jsii/runtime@1.140.0`. */
  public hello = '';
  /** What the kernel process printed (decoded from the runtime's stderr envelope). */
  public readonly console: string[] = [];
  private readonly lines: Interface;
  private readonly pending: string[] = [];
  private waiting?: (line: string) => void;
  private exited?: string;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: child.stdout });
    this.lines.on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      } else this.pending.push(line);
    });
    createInterface({ input: child.stderr }).on('line', (line) => this.console.push(decodeConsole(line)));
    child.on('exit', (code, signal) => {
      this.exited = `the jsii runtime exited (${code ?? signal})`;
      this.waiting?.(JSON.stringify({ error: this.exited }));
    });
  }

  /** `load`: installs an npm tarball in the kernel (its jsii assembly and its JavaScript). */
  public load(name: string, version: string, tarball: string): Promise<{ assembly: string; types: number }> {
    return this.request({ api: 'load', name, version, tarball }) as Promise<{ assembly: string; types: number }>;
  }

  /** `create`: a new instance of a class. */
  public async create(fqn: string, args: unknown[] = []): Promise<ObjRef> {
    return (await this.request({ api: 'create', fqn, args, overrides: [], interfaces: [] })) as ObjRef;
  }

  /** `invoke`: an instance method, synchronously (what Go does for every method). */
  public async invoke(objref: ObjRef, method: string, args: unknown[] = []): Promise<unknown> {
    return ((await this.request({ api: 'invoke', objref, method, args })) as { result: unknown }).result;
  }

  /** `sinvoke`: a static method. */
  public async sinvoke(fqn: string, method: string, args: unknown[] = []): Promise<unknown> {
    return ((await this.request({ api: 'sinvoke', fqn, method, args })) as { result: unknown }).result;
  }

  /** `get`: a property of an instance (or of a struct the kernel handed out by reference). */
  public async get(objref: ObjRef, property: string): Promise<unknown> {
    return ((await this.request({ api: 'get', objref, property })) as { value: unknown }).value;
  }

  /** `sget`: a static property (a constant, as the generated code of every language reads one). */
  public async sget(fqn: string, property: string): Promise<unknown> {
    return ((await this.request({ api: 'sget', fqn, property })) as { value: unknown }).value;
  }

  /**
   * `getBinScriptCommand`: how Python's and Java's runtimes start a package's console script (`bin` of its
   * package.json): the kernel answers the unpacked file to execute, its arguments and environment, and the host
   * runs that file itself.
   */
  public async binScriptCommand(
    assembly: string,
    script: string,
    args: string[],
  ): Promise<{ command: string; args: string[]; env: Record<string, string> }> {
    return (await this.request({ api: 'getBinScriptCommand', assembly, script, args })) as {
      command: string;
      args: string[];
      env: Record<string, string>;
    };
  }

  /** Ends the runtime: closing stdin is how the host runtimes say goodbye. */
  public async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }

  /** One request at a time, as the protocol has it: a request waits for the answer of the one before. */
  private request(request: Record<string, unknown>): Promise<unknown> {
    const answered = this.queue.then(() => this.send(request));
    this.queue = answered.catch(() => undefined);
    return answered;
  }

  private async send(request: Record<string, unknown>): Promise<unknown> {
    if (this.exited) throw new Error(this.exited);
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
    const answer = (await this.nextAnswer()) as { ok?: unknown; error?: string; name?: string; stack?: string; callback?: unknown };
    if ('callback' in answer) throw new Error(`unexpected callback from the kernel: ${JSON.stringify(answer.callback)}`);
    if (answer.error !== undefined) throw new KernelError(answer.error, answer.name, answer.stack);
    return answer.ok;
  }

  private nextAnswer(): Promise<unknown> {
    const line = this.pending.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line));
    if (this.exited) return Promise.reject(new Error(`${this.exited}; it printed:\n${this.console.join('\n')}`));
    return new Promise((resolve) => {
      this.waiting = (next) => resolve(JSON.parse(next));
    });
  }
}

function decodeConsole(line: string): string {
  try {
    const envelope = JSON.parse(line) as { stdout?: string; stderr?: string };
    const encoded = envelope.stdout ?? envelope.stderr;
    return encoded === undefined ? line : Buffer.from(encoded, 'base64').toString('utf8');
  } catch {
    return line;
  }
}

/** The kernel error `call` fails with (a test fails if it succeeds or fails otherwise). */
export async function kernelError(call: Promise<unknown>): Promise<KernelError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KernelError);
  return error as KernelError;
}
