/**
 * The `external` data source of hashicorp/external v2.3.x
 * (internal/provider/data_source.go): its schema, its validation and its
 * read, with the real provider's diagnostics word for word. One addition:
 * "Unexpected External Program Results" also quotes the start of what the
 * program printed, which the real provider only logs at TRACE level.
 */
import { goMarshalStringMap, goUnmarshalStringMap } from './go-json';
import { log } from './log';
import { CtyObject, CtyType, CtyValue, isWhollyKnown } from './msgpack-cty';
import { lookPath, runProgram } from './program';

export const DATA_SOURCE_TYPE_NAME = 'external';

/** The cty type of the data source's object (its attributes in the schema). */
export const DATA_SOURCE_TYPE: CtyType = [
  'object',
  {
    id: 'string',
    program: ['list', 'string'],
    query: ['map', 'string'],
    result: ['map', 'string'],
    working_dir: 'string',
  },
];

/** One attribute of the data source's schema, as Terraform's plugin protocol describes it. */
export interface SchemaAttribute {
  readonly name: string;
  readonly type: CtyType;
  readonly description: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
}

export const DATA_SOURCE_ATTRIBUTES: readonly SchemaAttribute[] = [
  {
    name: 'id',
    type: 'string',
    computed: true,
    description: 'The id of the data source. This will always be set to `-`',
  },
  {
    name: 'program',
    type: ['list', 'string'],
    required: true,
    description:
      'A list of strings, whose first element is the program to run and whose subsequent elements are optional ' +
      'command line arguments to the program. Terraform does not execute the program through a shell, so it is not ' +
      'necessary to escape shell metacharacters nor add quotes around arguments containing spaces.',
  },
  {
    name: 'query',
    type: ['map', 'string'],
    optional: true,
    description:
      'A map of string values to pass to the external program as the query arguments. If not supplied, the ' +
      'program will receive an empty object as its input.',
  },
  {
    name: 'result',
    type: ['map', 'string'],
    computed: true,
    description: 'A map of string values returned from the external program.',
  },
  {
    name: 'working_dir',
    type: 'string',
    optional: true,
    description: 'Working directory of the program. If not supplied, the program will run in the current directory.',
  },
];

export const DATA_SOURCE_DESCRIPTION =
  'The `external` data source allows an external program implementing a specific ' +
  'protocol (defined below) to act as a data source, exposing arbitrary data for use elsewhere in the Terraform ' +
  'configuration. (Stand-in of hashicorp/external for offline tests: tools/terraform-provider-external of cdktf-google-iam.)';

/** An error or warning for Terraform to show. */
export interface Diagnostic {
  readonly severity: 'ERROR' | 'WARNING';
  readonly summary: string;
  readonly detail: string;
  /** The top-level attribute the diagnostic is about. */
  readonly attribute?: string;
}

/** How much of the program's output "Unexpected External Program Results" quotes. */
export const OUTPUT_EXCERPT_LENGTH = 512;

/** ValidateDataResourceConfig: the schema's listvalidator.SizeAtLeast(1) on `program` (unknowns pass). */
export function validateConfig(config: CtyObject): Diagnostic[] {
  const program = config.program;
  if (!Array.isArray(program) || program.length >= 1) return [];
  return [
    {
      severity: 'ERROR',
      summary: 'Invalid Attribute Value',
      detail: `Attribute program list must contain at least 1 elements, got: ${program.length}`,
      attribute: 'program',
    },
  ];
}

/** What a read of the data source ends in: its new state, or diagnostics. */
export interface ReadResult {
  /** The new state (the config with `result` and `id`), absent on error. */
  readonly state?: CtyObject;
  readonly diagnostics: Diagnostic[];
}

/** ReadDataSource: runs the program with the query and returns its result. */
export async function readDataSource(config: CtyObject, signal?: AbortSignal): Promise<ReadResult> {
  if (!isWhollyKnown(config)) {
    // Terraform defers the read of a data source whose config is not known yet; this is a protocol error.
    return fail('Unknown Configuration', 'The data source was asked to read a configuration with unknown values.');
  }
  const programList = (config.program ?? []) as Array<string | null>;
  const program = programList.filter((arg): arg is string => arg !== null && arg !== '');
  if (program.length === 0) {
    return fail(
      'External Program Missing',
      'The data source was configured without a program to execute. ' + 'Verify the configuration contains at least one non-empty value.',
    );
  }

  // Null query values are left out, as v2.2.3 and earlier did (hashicorp/terraform-provider-external#208).
  const query = new Map<string, string>();
  for (const [key, value] of (config.query as Map<string, CtyValue> | null) ?? new Map<string, CtyValue>()) {
    if (typeof value === 'string') query.set(key, value);
  }
  const queryJson = goMarshalStringMap(query);

  const found = lookPath(program[0]);
  if (!found.ok) {
    return fail(
      'External Program Lookup Failed',
      LOOKUP_FAILED_DETAIL + `\nPlatform: ${goos()}` + `\nProgram: ${String(programList[0])}` + `\nError: ${found.error}`,
    );
  }

  const workingDir = typeof config.working_dir === 'string' ? config.working_dir : '';
  log('trace', 'Executing external program', { program: [found.path, ...program.slice(1)].join(' ') });
  const run = await runProgram(found.path, program.slice(1), { cwd: workingDir, stdin: queryJson, signal });
  const output = run.stdout.toString('utf8');
  log('trace', 'Executed external program', { program: found.path, output, stderr: run.stderr });

  if (run.error !== undefined) {
    if (run.stderr.length > 0) {
      return fail(
        'External Program Execution Failed',
        'The data source received an unexpected error while attempting to execute the program.' +
          `\n\nProgram: ${found.path}` +
          `\nError Message: ${run.stderr}` +
          `\nState: ${run.error}`,
      );
    }
    return fail(
      'External Program Execution Failed',
      'The data source received an unexpected error while attempting to execute the program.\n\n' +
        'The program was executed, however it returned no additional error messaging.' +
        `\n\nProgram: ${found.path}` +
        `\nState: ${run.error}`,
    );
  }

  const parsed = goUnmarshalStringMap(run.stdout);
  if (!parsed.ok) {
    return fail(
      'Unexpected External Program Results',
      RESULTS_DETAIL + `\nProgram: ${found.path}` + `\nResult Error: ${parsed.error}` + `\nProgram Output: ${excerpt(output)}`,
    );
  }

  return { state: { ...config, result: parsed.value, id: '-' }, diagnostics: [] };
}

function fail(summary: string, detail: string): ReadResult {
  return { diagnostics: [{ severity: 'ERROR', summary, detail, attribute: 'program' }] };
}

function excerpt(output: string): string {
  if (output.length === 0) return '(empty)';
  const shown =
    output.length > OUTPUT_EXCERPT_LENGTH ? `${output.slice(0, OUTPUT_EXCERPT_LENGTH)}... (${output.length} characters in all)` : output;
  return JSON.stringify(shown);
}

/** Go's runtime.GOOS for this platform. */
function goos(): string {
  return process.platform === 'win32' ? 'windows' : process.platform;
}

// The real provider's text, including its first sentence about parsing the query (sic).
const LOOKUP_FAILED_DETAIL =
  'The data source received an unexpected error while attempting to parse the query. ' +
  'The data source received an unexpected error while attempting to find the program.\n\n' +
  'The program must be accessible according to the platform where Terraform is running.\n\n' +
  'If the expected program should be automatically found on the platform where Terraform is running, ensure that the program is in an expected directory. ' +
  "On Unix-based platforms, these directories are typically searched based on the '$PATH' environment variable. " +
  "On Windows-based platforms, these directories are typically searched based on the '%PATH%' environment variable.\n\n" +
  'If the expected program is relative to the Terraform configuration, it is recommended that the program name includes the interpolated value of ' +
  '\'path.module\' before the program name to ensure that it is compatible with varying module usage. For example: "${path.module}/my-program"\n\n' +
  'The program must also be executable according to the platform where Terraform is running. ' +
  'On Unix-based platforms, the file on the filesystem must have the executable bit set. On Windows-based platforms, no action is typically necessary.\n';

const RESULTS_DETAIL =
  'The data source received unexpected results after executing the program.\n\n' +
  'Program output must be a JSON encoded map of string keys and string values.\n\n' +
  "If the error is unclear, the output can be viewed by enabling Terraform's logging at TRACE level. " +
  'Terraform documentation on logging: https://www.terraform.io/internals/debugging\n';
