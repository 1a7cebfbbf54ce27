import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import type { EmulatorStats, FaultOptions } from '../../lib/testing';
import type { Policy } from '../../lib/iam/types';

const CLI = path.join(__dirname, '..', '..', 'lib', 'testing', 'emulator', 'cli.js');

/**
 * The emulator in a process of its own (its CLI), seeded and inspected over
 * its admin API. The Direct-form lookups block the process that calls them
 * until the provider's lookup mode answers, so an emulator served by that same process
 * could never answer: their tests use this one.
 */
export class EmulatorProcess {
  public static async start(services: readonly string[] = []): Promise<EmulatorProcess> {
    const child = spawn(process.execPath, [CLI, '--json', ...(services.length ? ['--services', services.join(',')] : [])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
    });
    const { url, env } = JSON.parse(line) as { url: string; env: Record<string, string> };
    return new EmulatorProcess(child, url, env);
  }

  private constructor(
    private readonly child: ChildProcess,
    public readonly url: string,
    /** Endpoint overrides and the access token that point the provider and the lookups here. */
    public readonly env: Record<string, string>,
  ) {}

  public addResource(name: string, policy?: Policy): Promise<void> {
    return this.admin('POST', 'resources', { name, policy });
  }

  public addImportJob(job: Record<string, unknown>): Promise<void> {
    return this.admin('POST', 'import-jobs', { job });
  }

  public policy(name: string): Promise<Policy> {
    return this.admin('GET', `policies/${name}`);
  }

  /** Injects faults from now on (see FaultOptions); undefined stops them. */
  public setFaults(faults: FaultOptions | undefined): Promise<void> {
    return this.admin('POST', 'faults', { faults });
  }

  public stats(): Promise<EmulatorStats> {
    return this.admin('GET', 'stats');
  }

  public close(): void {
    this.child.kill('SIGTERM');
  }

  private async admin<T>(method: string, action: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}/__emulator/${action}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as T;
    if (!response.ok) throw new Error(`emulator ${method} ${action}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  }
}
