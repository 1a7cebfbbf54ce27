/**
 * Log lines for Terraform's log (TF_LOG=trace, TF_LOG_PROVIDER=trace): go-plugin
 * reads a plugin's stderr and takes each line that is a JSON object with
 * "@level" and "@message" (hclog's JSON format) as a log entry at that level.
 * Written only when Terraform logs at all (it passes TF_LOG* on to plugins),
 * so that in-process use stays quiet.
 */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** One line of go-hclog's JSON log format on stderr, which Terraform shows with TF_LOG. */
export function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
  if (!process.env.TF_LOG && !process.env.TF_LOG_PROVIDER) return;
  // go-plugin parses "@timestamp" with Go's layout 2006-01-02T15:04:05.000000Z07:00 (microseconds), else logs the raw line.
  const timestamp = new Date().toISOString().replace(/Z$/, '000Z');
  const entry = { '@level': level, '@message': message, '@module': 'provider.external', '@timestamp': timestamp, ...fields };
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}
