import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { CheckFinding, GrantCheck } from '../iam/check-grant';
import { raisedFindings } from '../iam/check-grant';
import { counted } from '../iam/format';
import { CHECK_RULES, ruleSetting, type CheckSettings } from '../iam/check-rules';

/**
 * The IAM reports of one stack, written into its folder at synth:
 * - `iam-report.json`: every role every grant gives every principal, with its findings;
 * - `iam-report.md`: who gets what, by principal then resource, and the findings: for a pull request;
 * - `iam-report.sarif`: SARIF 2.1.0, one rule per ID and one result per finding raised, at the stack's
 *   cdk.tf.json, for GitHub code scanning.
 * @internal
 */

/** What a value only Terraform knows reads as in the reports. */
export const KNOWN_AT_APPLY = 'known at apply';

/** One grant construct of the stack, judged. @internal */
export interface ReportedGrant {
  readonly constructPath: string;
  /** `googleiam_authorization_policy_iam_member.internal-apis_...`. */
  readonly address: string;
  /** The Terraform resource type, `googleiam_authorization_policy_iam_member`. */
  readonly resourceType: string;
  /** The construct's class, `AuthorizationPolicyIamMember`. */
  readonly construct: string;
  /** The API that serves the policy, e.g. `networksecurity`. */
  readonly service: string;
  /** `member`, `binding`, `policy`, ... */
  readonly kind: string;
  readonly check: GrantCheck;
}

/** The settings the stack was checked with, for the reports. @internal */
export interface ReportSettings {
  readonly settings: CheckSettings;
  /** The package's name and version, `cdktf-google-iam 0.1.0`. */
  readonly tool: { readonly name: string; readonly version: string; readonly informationUri: string };
}

/** Writes the three reports of `stack` into `dir`; `stackFile` is cdk.tf.json's path there (it may not exist when synth refused the stack). */
export function writeReports(dir: string, stack: string, grants: readonly ReportedGrant[], options: ReportSettings): void {
  fs.mkdirSync(dir, { recursive: true });
  const stackFile = path.join(dir, 'cdk.tf.json');
  fs.writeFileSync(path.join(dir, 'iam-report.json'), jsonText(jsonReport(stack, grants, options)));
  fs.writeFileSync(path.join(dir, 'iam-report.md'), markdownReport(stack, grants, options));
  fs.writeFileSync(path.join(dir, 'iam-report.sarif'), `${JSON.stringify(sarifReport(grants, options, stackFile), null, 2)}\n`);
}

const shown = (value: string | undefined) => value ?? KNOWN_AT_APPLY;

/** The JSON report as text: indented, but each grant on one line (a stack of 10,000 grants is 10,000 lines, quick to write and to diff). */
function jsonText(report: ReturnType<typeof jsonReport>): string {
  const { grants, ...rest } = report;
  const head = JSON.stringify(rest, null, 2).replace(/\n}$/, '');
  const rows = grants.map((g) => `    ${JSON.stringify(g)}`).join(',\n');
  return `${head},\n  "grants": [${grants.length > 0 ? `\n${rows}\n  ` : ''}]\n}\n`;
}

function findingJson(f: CheckFinding) {
  return {
    rule: f.rule,
    level: f.level,
    suppressed: f.suppressedBecause !== undefined,
    ...(f.suppressedBecause === undefined ? {} : { reason: f.suppressedBecause }),
    message: f.message,
    instead: f.instead,
  };
}

/** Counts of the findings: raised errors and warnings (each once per grant), suppressed ones, and grants with values known at apply. */
function summary(grants: readonly ReportedGrant[]) {
  let errors = 0;
  let warnings = 0;
  let suppressed = 0;
  for (const g of grants) {
    for (const f of raisedFindings(g.check)) {
      if (f.level === 'error') errors++;
      else warnings++;
    }
    suppressed += new Set(
      g.check.entries.flatMap((e) => e.findings.filter((f) => f.suppressedBecause !== undefined).map((f) => `${f.rule}|${f.message}`)),
    ).size;
  }
  return { grants: grants.length, errors, warnings, suppressed, knownAtApply: grants.filter((g) => g.check.pending).length };
}

/** iam-report.json. @internal */
export function jsonReport(stack: string, grants: readonly ReportedGrant[], options: ReportSettings) {
  const { settings } = options;
  return {
    report: 'cdktf-google-iam IAM report',
    version: 1,
    tool: `${options.tool.name} ${options.tool.version}`,
    stack,
    settings: {
      allowedMemberDomains: [...(settings.allowedMemberDomains ?? [])],
      rules: Object.fromEntries(CHECK_RULES.map((r) => [r.id, ruleSetting(r.id, settings)])),
    },
    summary: summary(grants),
    rules: CHECK_RULES.map((r) => ({
      id: r.id,
      level: ruleSetting(r.id, settings),
      name: r.name,
      description: r.description,
      instead: r.instead,
      sources: r.sources,
    })),
    grants: grants.flatMap((g) =>
      g.check.entries.map((e) => ({
        constructPath: g.constructPath,
        address: g.address,
        resourceType: g.resourceType,
        construct: g.construct,
        service: g.service,
        resourceName: shown(g.check.resourceName),
        kind: g.kind,
        authoritative: g.check.authoritative,
        role: shown(e.role),
        member: shown(e.member),
        condition: e.condition ? { title: shown(e.condition.title), expression: shown(e.condition.expression) } : null,
        findings: e.findings.map(findingJson),
      })),
    ),
  };
}

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** iam-report.md: the findings, then who gets what (by principal, then resource). @internal */
export function markdownReport(stack: string, grants: readonly ReportedGrant[], options: ReportSettings): string {
  const s = summary(grants);
  const principals = new Set<string>();
  const resources = new Set<string>();
  for (const g of grants) {
    resources.add(shown(g.check.resourceName));
    for (const e of g.check.entries) principals.add(shown(e.member));
  }
  const lines = [
    `# IAM report: stack ${code(stack)}`,
    '',
    `${counted(s.grants, 'grant')} ${s.grants === 1 ? 'gives' : 'give'} ${counted(principals.size, 'principal')} roles on ` +
      `${counted(resources.size, 'resource')}. ` +
      `Findings: ${counted(s.errors, 'error')}, ${counted(s.warnings, 'warning')}, ${s.suppressed} suppressed` +
      (s.knownAtApply > 0
        ? `; ${counted(s.knownAtApply, 'grant holds', 'grants hold')} values known at apply (the provider checks them then).`
        : '.'),
    '',
  ];
  const rows: string[] = [];
  for (const g of grants) {
    for (const f of raisedFindings(g.check)) rows.push(`| ${f.level} | ${f.rule} | ${code(g.constructPath)} | ${cell(f.message)} |`);
  }
  for (const g of grants) {
    const seen = new Set<string>();
    for (const f of g.check.entries.flatMap((e) => e.findings)) {
      if (f.suppressedBecause === undefined || seen.has(`${f.rule}|${f.message}`)) continue;
      seen.add(`${f.rule}|${f.message}`);
      rows.push(`| suppressed | ${f.rule} | ${code(g.constructPath)} | ${cell(f.message)}. Reason: ${cell(f.suppressedBecause)} |`);
    }
  }
  if (rows.length > 0) lines.push('## Findings', '', '| level | rule | grant | what was found |', '| --- | --- | --- | --- |', ...rows, '');

  // Who gets what: rows of (principal, resource, role), sorted once, then grouped.
  const who: (readonly [string, string, string])[] = [];
  for (const g of grants) {
    const resource = shown(g.check.resourceName);
    const authority = g.check.authoritative ? [`authoritative ${g.kind}`] : [];
    for (const e of g.check.entries) {
      const condition = e.condition ? ` if ${JSON.stringify(shown(e.condition.title))}: ${code(shown(e.condition.expression))}` : '';
      const flags =
        e.findings.length === 0
          ? authority
          : [...authority, ...new Set(e.findings.filter((f) => f.suppressedBecause === undefined).map((f) => f.rule))];
      who.push([shown(e.member), resource, `${shown(e.role)}${condition}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}`]);
    }
  }
  who.sort((a, b) => principalOrder(a[0], b[0]) || byText(a[1], b[1]) || byText(a[2], b[2]));
  lines.push('## Who gets what');
  for (let i = 0; i < who.length; i++) {
    const [principal, resource, role] = who[i];
    const previous = who[i - 1];
    if (previous?.[0] !== principal) lines.push('', `**${principal}**`, '');
    if (previous?.[0] !== principal || previous[1] !== resource) lines.push(`- ${code(resource)}: ${role}`);
    else if (previous[2] !== role) lines[lines.length - 1] += `; ${role}`;
  }
  lines.push('');
  const pending = grants.filter((g) => g.check.pending);
  if (pending.length > 0) {
    lines.push('## Known at apply', '', 'Values of these grants are Terraform expressions: the provider checks them at plan or apply.', '');
    for (const g of pending) lines.push(`- ${code(g.constructPath)} (${code(g.address)})`);
    lines.push('');
  }
  lines.push(
    `Checked by ${options.tool.name} ${options.tool.version}; the rules, their sources and how to suppress a finding: ${options.tool.informationUri}/blob/main/docs/checks.md`,
    '',
  );
  return lines.join('\n');
}

/** Public principals first, then the others alphabetically, "known at apply" last. */
function principalOrder(a: string, b: string): number {
  const rank = (p: string) => (p === 'allUsers' || p === 'allAuthenticatedUsers' ? 0 : p === KNOWN_AT_APPLY ? 2 : 1);
  return rank(a) - rank(b) || byText(a, b);
}

/** Plain code-unit order: the same on every machine (and quick for thousands of principals). */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SARIF's `security-severity` (GitHub sorts code scanning alerts by it): errors high, warnings medium. */
const SECURITY_SEVERITY: Readonly<Record<string, string>> = { error: '8.0', warning: '5.0' };

/** iam-report.sarif: SARIF 2.1.0. @internal */
export function sarifReport(grants: readonly ReportedGrant[], options: ReportSettings, stackFile: string) {
  const uri = path.relative(process.cwd(), stackFile).split(path.sep).join('/');
  let lines: ((address: string) => number | undefined) | undefined;
  const lineOf = (address: string) => (lines ??= resourceLines(stackFile))(address);
  const rules = CHECK_RULES.map((r) => {
    const level = ruleSetting(r.id, options.settings);
    return {
      id: r.id,
      name: r.name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()),
      shortDescription: { text: r.name },
      fullDescription: { text: r.description },
      help: {
        text: `${r.instead} Sources: ${r.sources.map((s) => `${s.title} (${s.url})`).join('; ')}.`,
        markdown: `${r.instead}\n\nSources:\n${r.sources.map((s) => `- [${s.title}](${s.url})`).join('\n')}`,
      },
      helpUri: r.sources[0].url,
      defaultConfiguration: { enabled: level !== 'off', level: level === 'off' ? r.level : level },
      properties: { tags: ['security', 'iam'], 'security-severity': SECURITY_SEVERITY[level === 'off' ? r.level : level] },
    };
  });
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const results = grants.flatMap((g) =>
    raisedFindings(g.check).map((f) => {
      const line = lineOf(g.address);
      return {
        ruleId: f.rule,
        ruleIndex: index.get(f.rule)!,
        level: f.level,
        message: { text: `${g.constructPath} (${g.address}): ${f.message}. ${f.instead}` },
        locations: [
          {
            physicalLocation: { artifactLocation: { uri }, ...(line === undefined ? {} : { region: { startLine: line } }) },
            logicalLocations: [{ name: g.address, fullyQualifiedName: g.constructPath, kind: 'resource' }],
          },
        ],
        partialFingerprints: {
          'googleIamFinding/v1': crypto.createHash('sha256').update(`${f.rule}\n${g.constructPath}\n${f.message}`).digest('hex'),
        },
      };
    }),
  );
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: options.tool.name, version: options.tool.version, informationUri: options.tool.informationUri, rules } },
        automationDetails: { id: `cdktf-google-iam/${path.basename(path.dirname(stackFile))}/` },
        results,
      },
    ],
  };
}

/** The line (1-based) of each resource's block in cdk.tf.json, by its address; none when the file was not written. */
function resourceLines(stackFile: string): (address: string) => number | undefined {
  let lines: string[] = [];
  try {
    lines = fs.readFileSync(stackFile, 'utf8').split('\n');
  } catch {
    return () => undefined;
  }
  const found = new Map<string, number>();
  let type: string | undefined;
  let inResources = false;
  for (let i = 0; i < lines.length; i++) {
    const m = /^( *)"([^"]+)": \{$/.exec(lines[i]);
    if (!m) continue;
    const depth = m[1].length;
    if (depth === 2) inResources = m[2] === 'resource';
    else if (inResources && depth === 4) type = m[2];
    else if (inResources && depth === 6 && type) found.set(`${type}.${m[2]}`, i + 1);
  }
  return (address) => found.get(address);
}
