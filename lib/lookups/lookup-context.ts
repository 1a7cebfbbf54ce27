import * as fs from 'fs';
import * as path from 'path';

/** The context file's name: beside `cdktf.json`, committed with the app (as the AWS CDK's `cdk.context.json`). */
export const LOOKUP_CONTEXT_FILE = 'cdktf-google-iam.context.json';

/** Environment variables of the context file. */
export const LOOKUP_CONTEXT_ENV = {
  /** Another path for the context file (relative to the working directory). */
  file: 'CDKTF_GOOGLE_IAM_CONTEXT_FILE',
  /** `*` reads every lookup afresh; otherwise a comma-separated list of entry keys to read afresh. */
  refresh: 'CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS',
  /** Set (to anything but `''` or `0`): a lookup not in the file fails instead of reading Google (CI: the committed file is complete). */
  noLookups: 'CDKTF_GOOGLE_IAM_NO_LOOKUPS',
} as const;

/**
 * The Direct-form lookups' results, kept in a JSON file so that synth is
 * repeatable and works offline, without credentials: an entry is read before
 * any network call, and a lookup that succeeded is written back. The file is
 * one JSON object, entry keys sorted, each key naming the lookup and its
 * arguments (`getImportJob:importJobId=inventory:location=us-central1:project=p`),
 * each value the typed result exactly as the lookup returns it (object keys
 * sorted). It holds what Google answered and nothing else: no token, no
 * credential, no endpoint.
 *
 * @internal
 */
export class LookupContext {
  /**
   * The context file of this app: `file` if given, else `CDKTF_GOOGLE_IAM_CONTEXT_FILE`,
   * else `cdktf-google-iam.context.json` beside the nearest `cdktf.json` (from the
   * working directory, where `cdktf synth` runs the app, upwards), else in the working directory.
   */
  public static open(file: string | undefined, env: NodeJS.ProcessEnv = process.env): LookupContext {
    const chosen = file ?? (env[LOOKUP_CONTEXT_ENV.file]?.trim() || undefined);
    return new LookupContext(chosen ? path.resolve(chosen) : path.join(appDirectory(process.cwd()), LOOKUP_CONTEXT_FILE), env);
  }

  /** The key of a lookup: its name, then its arguments as `name=value`, sorted, absent ones left out. */
  public static key(lookup: string, args: Record<string, string | number | undefined>): string {
    const parts = Object.keys(args)
      .filter((name) => args[name] !== undefined)
      .sort()
      .map((name) => `${name}=${args[name]}`);
    return [lookup, ...parts].join(':');
  }

  private constructor(
    /** The file's absolute path. */
    public readonly file: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The entry under `key`, unless absent or to be refreshed (see `LOOKUP_CONTEXT_ENV`). */
  public get(key: string): object | undefined {
    if (this.refreshes(key)) return undefined;
    const value = this.entries()[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new Error(`${this.file}: the entry ${JSON.stringify(key)} is not an object; delete it to read the lookup again`);
    }
    return value;
  }

  /**
   * Refuses a read of Google when `CDKTF_GOOGLE_IAM_NO_LOOKUPS` is set: `lookup`
   * had to read, because `key` is not in the file (or is to be refreshed).
   */
  public checkMayRead(lookup: string, key: string): void {
    const forbidden = this.env[LOOKUP_CONTEXT_ENV.noLookups]?.trim();
    if (!forbidden || forbidden === '0') return;
    throw new Error(
      `${lookup}: ${this.file} has no entry ${JSON.stringify(key)}${this.refreshes(key) ? ' to use (it is to be refreshed)' : ''}, ` +
        `and ${LOOKUP_CONTEXT_ENV.noLookups} is set, so Google is not asked. Synthesize once without it, where Google ` +
        'can be reached, and commit the context file',
    );
  }

  /** Stores a successful lookup's result (the file re-read first, so other entries written meanwhile stay), atomically. */
  public set(key: string, value: object): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const entries = { ...this.entries(), [key]: value };
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(sortedDeep(entries), undefined, 2)}\n`);
    fs.renameSync(temp, this.file);
  }

  private refreshes(key: string): boolean {
    const wanted = (this.env[LOOKUP_CONTEXT_ENV.refresh] ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    return wanted.includes('*') || wanted.includes(key);
  }

  private entries(): Record<string, unknown> {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`${this.file}: not JSON (${(error as Error).message}); fix it, or delete it to read every lookup again`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(`${this.file}: expected a JSON object of lookup results; fix it, or delete it to read every lookup again`);
    }
    return parsed as Record<string, unknown>;
  }
}

/** The nearest folder upwards with a `cdktf.json` (CDK Terrain reads the same file), else `start`. */
function appDirectory(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'cdktf.json'))) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}

/** The same value with every object's keys sorted, so the file's text depends on its content only. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((k) => [k, sortedDeep(object[k])]),
  );
}
