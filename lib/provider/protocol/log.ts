/**
 * Log lines for Terraform's log (TF_LOG=trace, TF_LOG_PROVIDER=trace): go-plugin
 * reads a plugin's stderr and takes each line that is a JSON object with
 * "@level" and "@message" (hclog's JSON format) as a log entry at that level.
 * Written only when Terraform logs at all (it passes TF_LOG* on to plugins),
 * so that a provider run without logging stays quiet. Never pass a value
 * that may be sensitive (see redact.ts).
 */
import type { LogLevel } from '../framework/resource';

export type { LogLevel };

/** Writes hclog JSON lines as one module (go-hclog's "@module", e.g. `provider.googleiam`). */
export class Logger {
  private readonly enabled: boolean;

  constructor(
    private readonly module: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.enabled = Boolean(env.TF_LOG || env.TF_LOG_PROVIDER);
  }

  public log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
    if (!this.enabled) return;
    // go-plugin parses "@timestamp" with Go's layout 2006-01-02T15:04:05.000000Z07:00 (microseconds), else logs the raw line.
    const timestamp = new Date().toISOString().replace(/Z$/, '000Z');
    const entry = { '@level': level, '@message': message, '@module': this.module, '@timestamp': timestamp, ...fields };
    process.stderr.write(`${JSON.stringify(entry)}\n`);
  }
}
