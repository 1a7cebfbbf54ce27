/**
 * Conditions type-checked as Google's IAM environment types them
 * (lib/iam/cel-checker.ts, the declarations of condition-attributes.ts), their
 * timestamp and duration literals parsed as Google's CEL (cel-go) parses them
 * (lib/iam/cel-literals.ts), and what Google's reference leaves uncertain a
 * warning. Each case names its source: Google's attribute reference
 * (https://cloud.google.com/iam/docs/conditions-attribute-reference, by
 * section), Google's other IAM pages, or cel-go's type-checker tests as
 * @bufbuild/cel-spec's testdata/checking carries them.
 */
import { tests as checkingSuite } from '@bufbuild/cel-spec/testdata/checking.js';
import { celType } from '../../../lib/iam/cel-checker';
import { durationProblem, timestampProblem } from '../../../lib/iam/cel-literals';
import { checkGrantConditions, conditionWarnings, validateCondition } from '../../../lib/iam/condition';
import type { Grant } from '../../../lib/iam/grant';
import { validationError } from './expect-error';

const REFERENCE = 'https://cloud.google.com/iam/docs/conditions-attribute-reference';
const refusal = (expression: string): string => validationError(() => validateCondition({ expression, title: 't' })).reason;
const accepted = (expression: string): boolean => {
  validateCondition({ expression, title: 't' });
  return true;
};
/** The caret excerpt describePosition writes under a message. */
const at = (expression: string, column: number): string => ` at line 1, column ${column}:\n  ${expression}\n  ${' '.repeat(column - 1)}^`;

describe('the three conditions of issue 52 are refused, with what is wrong, a caret and what would be right', () => {
  test('an attribute Google does not declare: request.tme', () => {
    const expression = 'request.tme < timestamp("2027-01-01T00:00:00Z")';
    expect(refusal(expression)).toBe(
      'not a valid IAM condition: `request` has no attribute `tme` (did you mean `request.time`?): Google documents ' +
        '`request.time` (timestamp), `request.host` (string), `request.path` (string) and `request.auth` (with `request.auth.access_levels`) ' +
        `(${REFERENCE}, "Request attributes (Date/time, URL host/path, Access levels)")${at(expression, 9)}`,
    );
  });

  test('a timestamp compared with a string: no CEL overload', () => {
    const expression = 'request.time < "2027-01-01"';
    expect(refusal(expression)).toBe(
      'not a valid IAM condition: `request.time` is a timestamp: compare it with `timestamp("2027-01-01T00:00:00Z")`, not a string ' +
        `(CEL has no \`<\` for a timestamp and a string)${at(expression, 16)}`,
    );
  });

  test('a date that does not exist', () => {
    const expression = 'timestamp("2027-13-01T00:00:00Z")';
    expect(refusal(expression)).toBe(
      'not a valid IAM condition: `timestamp("2027-13-01T00:00:00Z")` is not a valid timestamp: month 13 does not exist; ' +
        `write e.g. \`timestamp("2027-01-01T00:00:00Z")\`${at(expression, 11)}`,
    );
  });
});

/**
 * Google's documented conditions, one or more per section of the attribute
 * reference and of the pages it links: each type-checks and is accepted.
 */
const DOCUMENTED: ReadonlyArray<readonly [source: string, expression: string]> = [
  // Date/time attributes: expirable access, and the date/time functions with a time zone.
  [`${REFERENCE}#date-time`, 'request.time < timestamp("2020-07-01T00:00:00.000Z")'],
  [`${REFERENCE}#date-time`, 'request.time > timestamp("2020-04-01T00:00:00Z") && request.time < timestamp("2020-05-01T00:00:00Z")'],
  [
    `${REFERENCE}#date-time`,
    'request.time.getHours("Europe/Berlin") >= 9 && request.time.getHours("Europe/Berlin") <= 17 && ' +
      'request.time.getDayOfWeek("Europe/Berlin") >= 1 && request.time.getDayOfWeek("Europe/Berlin") <= 5',
  ],
  [`${REFERENCE}#date-time`, 'request.time.getFullYear("America/Los_Angeles") >= 2020 && request.time.getMonth("America/Los_Angeles") < 6'],
  [`${REFERENCE}#date-time`, 'request.time.getDayOfMonth("America/New_York") == 1 && request.time.getDayOfYear() < 100'],
  [
    `${REFERENCE}#date-time`,
    'request.time.getDate("Asia/Tokyo") >= 15 && request.time.getMinutes() < 30 && request.time.getSeconds() < 59',
  ],
  [`${REFERENCE}#date-time`, 'request.time < timestamp("2021-01-01T00:00:00Z") + duration("3600s")'],
  // Resource attributes: service, type, name (startsWith, endsWith, extract).
  [`${REFERENCE}#resource-service`, 'resource.service == "compute.googleapis.com"'],
  [`${REFERENCE}#resource-type`, 'resource.type == "storage.googleapis.com/Object" || resource.type == "storage.googleapis.com/Bucket"'],
  [`${REFERENCE}#resource-name`, 'resource.name.startsWith("projects/_/buckets/exampleco-site-assets/")'],
  [`${REFERENCE}#resource-name`, 'resource.name.endsWith(".jpg")'],
  [`${REFERENCE}#resource-name`, 'resource.name.extract("projects/{project}/") == "my-project"'],
  [`${REFERENCE}#resource-name`, 'resource.name.extract("/objects/{name}").startsWith("reports/")'],
  // Resource tags.
  [`${REFERENCE}#resource-tags`, 'resource.matchTag("123456789012/env", "prod")'],
  [`${REFERENCE}#resource-tags`, 'resource.matchTagId("tagKeys/123456789012", "tagValues/567890123456")'],
  [`${REFERENCE}#resource-tags`, 'resource.hasTagKey("123456789012/env") && !resource.hasTagKeyId("tagKeys/123456789012")'],
  // Access levels.
  [`${REFERENCE}#access-levels`, '"accessPolicies/199923665455/accessLevels/CorpNet" in request.auth.access_levels'],
  // API attributes.
  [
    `${REFERENCE}#api-attributes`,
    "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', []).hasOnly(['roles/compute.admin', 'roles/compute.instanceAdmin.v1'])",
  ],
  [
    'https://cloud.google.com/storage/docs/access-control/iam#conditions',
    "resource.name.startsWith('projects/_/buckets/example-bucket/objects/reports/') || " +
      "api.getAttribute('storage.googleapis.com/objectListPrefix', '').startsWith('reports/')",
  ],
  // Destination IP/port (IAP TCP forwarding).
  [`${REFERENCE}#destination-ip-port`, 'destination.ip == "14.0.0.1" && destination.port == 22'],
  // Forwarding rule attributes.
  [
    `${REFERENCE}#forwarding-rule`,
    '!compute.isForwardingRuleCreationOperation() || (compute.isForwardingRuleCreationOperation() && ' +
      "compute.matchLoadBalancingSchemes(['INTERNAL', 'INTERNAL_MANAGED', 'INTERNAL_SELF_MANAGED']))",
  ],
  // URL host/path (IAP).
  [`${REFERENCE}#url-host-path`, 'request.host == "www.example.com" && request.path.startsWith("/admin")'],
  [`${REFERENCE}#url-host-path`, 'request.host.endsWith(".example.com") || request.path == "/"'],
  // Google's linter examples (https://cloud.google.com/iam/docs/linting-policies, "Linting examples").
  ['https://cloud.google.com/iam/docs/linting-policies', '1 < 2'],
  ['https://cloud.google.com/iam/docs/linting-policies', "api.getAttribute('somekey', []).hasOnly([1, -2, 'x', \"y\", true, null, 2.5])"],
];

describe("Google's documented conditions type-check and are accepted", () => {
  test.each(DOCUMENTED)('%s: %s', (_source, expression) => {
    expect(accepted(expression)).toBe(true);
  });
});

/**
 * Typed cases: what Google's IAM environment refuses, each with its source,
 * the column of the caret and the message's gist.
 */
const REFUSED: ReadonlyArray<readonly [source: string, expression: string, column: number, reason: RegExp]> = [
  // Attributes the reference does not declare.
  [
    `${REFERENCE}#resource-name`,
    'resource.nam.startsWith("projects/")',
    10,
    /`resource` has no attribute `nam` \(did you mean `resource\.name`\?\)/,
  ],
  [
    `${REFERENCE}#resource-attributes`,
    'resource.labels["env"] == "prod"',
    10,
    /`resource` has no attribute `labels`: Google documents `resource\.service`/,
  ],
  [`${REFERENCE}#access-levels`, 'request.auth.claims.email == "a@example.com"', 14, /`request\.auth` has no attribute `claims`/],
  [`${REFERENCE}#destination-ip-port`, 'destination.address == "10.0.0.1"', 13, /`destination` has no attribute `address`/],
  [`${REFERENCE}#api-attributes`, 'api.modifiedGrantsByRole == []', 5, /`api` has no attributes, only functions: `api\.getAttribute\(/],
  [
    `${REFERENCE}`,
    'origin.ip == "10.0.0.1"',
    1,
    /`origin` is not an attribute of IAM conditions: they are `request`, `resource`, `destination`, `api` and `compute`/,
  ],
  [
    `${REFERENCE}`,
    'requst.time < timestamp("2027-01-01T00:00:00Z")',
    1,
    /`requst` is not an attribute of IAM conditions \(did you mean `request`\?\)/,
  ],
  // Functions: a misspelt one, and the documented ones with the wrong arguments.
  [
    `${REFERENCE}#resource-name`,
    'resource.name.startWith("projects/")',
    15,
    /`startWith\(\)` is not a function of a string: did you mean `startsWith\(\)`\?/,
  ],
  [
    `${REFERENCE}#resource-tags`,
    'resource.matchTag("123456789012/env")',
    10,
    /no overload of `matchTag\(\)` takes `resource\.matchTag\(string\)`: it is `resource\.matchTag\(string, string\): bool`/,
  ],
  [`${REFERENCE}#resource-tags`, 'resource.hasTagKey(123)', 10, /no overload of `hasTagKey\(\)` takes `resource\.hasTagKey\(int\)`/],
  [
    `${REFERENCE}#forwarding-rule`,
    "compute.matchLoadBalancingSchemes('INTERNAL')",
    9,
    /no overload of `matchLoadBalancingSchemes\(\)` takes `compute\.matchLoadBalancingSchemes\(string\)`/,
  ],
  [
    `${REFERENCE}#date-time`,
    'request.time.getHour() > 9',
    14,
    /`getHour\(\)` is not a function of a timestamp: did you mean `getHours\(\)`\?/,
  ],
  // Overloads: the attribute's type against another.
  [`${REFERENCE}#destination-ip-port`, 'destination.port == "22"', 21, /`destination\.port` is an int: compare it with `22`, not a string/],
  [
    `${REFERENCE}#destination-ip-port`,
    'destination.ip == 167772161',
    19,
    /`destination\.ip` is a string: compare it with `"167772161"`, not an int/,
  ],
  [
    `${REFERENCE}#date-time`,
    'request.time > 1735689600',
    16,
    /`request\.time` is a timestamp: compare it with `timestamp\("2027-01-01T00:00:00Z"\)`, not an int/,
  ],
  [
    `${REFERENCE}#date-time`,
    'request.time < "2027-01-01T00:00:00Z"',
    16,
    /compare it with `timestamp\("2027-01-01T00:00:00Z"\)`, not a string/,
  ],
  [
    `${REFERENCE}#date-time`,
    'request.time - timestamp("2027-01-01T00:00:00Z") < 3600',
    52,
    /is a duration: compare it with `duration\("3600s"\)`, not an int/,
  ],
  [`${REFERENCE}#date-time`, 'request.time.getHours("UTC") == "9"', 33, /is an int: compare it with `9`, not a string/],
  [
    `${REFERENCE}#resource-type`,
    'resource.type == ["storage.googleapis.com/Object"]',
    18,
    /`resource\.type` is a string and `\["storage\.googleapis\.com\/Object"\]` a list<string>: CEL has no `==`/,
  ],
  [
    `${REFERENCE}#access-levels`,
    'request.auth.access_levels == "accessPolicies/1/accessLevels/CorpNet"',
    31,
    /`request\.auth\.access_levels` is a list<string> and/,
  ],
  // A condition is a bool.
  [`${REFERENCE}#resource-name`, 'resource.name', 1, /a condition must be true or false, but this expression is a string/],
  [
    `${REFERENCE}#resource-name`,
    'resource.name.extract("projects/{project}/")',
    1,
    /a condition must be true or false, but this expression is a string/,
  ],
  // Literals that do not exist.
  [`${REFERENCE}#date-time`, 'request.time < timestamp("2027-02-29T00:00:00Z")', 26, /February 2027 has no day 29 \(it has 28 days\)/],
  [
    `${REFERENCE}#date-time`,
    'request.time < timestamp("2027-01-01")',
    26,
    /a date alone is not an RFC 3339 time; add the time and its zone, e.g\. T00:00:00Z/,
  ],
  [`${REFERENCE}#date-time`, 'request.time < timestamp("2027-01-01T24:00:00Z")', 26, /hour 24 does not exist/],
  [
    `${REFERENCE}#date-time`,
    'request.time < timestamp("2021-01-01T00:00:00Z") + duration("1d")',
    61,
    /`duration\("1d"\)` is not a valid duration: "d" is not a unit/,
  ],
  [`${REFERENCE}#date-time`, 'request.time < timestamp("2021-01-01T00:00:00Z") + duration("3600")', 61, /the number 3600 has no unit/],
];

describe('typed cases Google refuses: the message says what is wrong and what would be right, the caret where', () => {
  test.each(REFUSED)('%s: %s', (_source, expression, column, reason) => {
    const message = refusal(expression);
    expect(message.startsWith('not a valid IAM condition: ')).toBe(true);
    expect(message).toMatch(reason);
    expect(message).toContain(at(expression, column));
  });
});

test('a multi-line condition: the caret on the line of the mistake', () => {
  const expression = 'request.time < timestamp("2027-01-01T00:00:00Z") &&\n  // only prod\n  destination.port == "22"';
  expect(refusal(expression)).toMatch(
    /compare it with `22`, not a string \(CEL has no `==` for an int and a string\) at line 3, column 23:\n {4}destination\.port == "22"\n {24}\^$/,
  );
});

test("checks run after the linter: its units keep their messages (Google's linter examples)", () => {
  expect(refusal("api.getAttribute('k', []).hasOnly(roles)")).toMatch(/HasOnlyListConstCheck/);
});

/**
 * cel-go's type-checker tests (checker/checker_test.go, as @bufbuild/cel-spec
 * testdata/checking carries them) whose expressions need no declarations of
 * the test's own: cel-js types them as cel-go does (the type or the refusal).
 */
const checkingCases = checkingSuite.tests ?? [];
const CEL_GO_TYPED: readonly string[] = [
  '"A"',
  '12u',
  '12.23',
  'b"ABC"',
  '[1]',
  '[1, "A"]',
  '1 + 2',
  '[1] + [2]',
  '{1:2u, 2:3u}',
  '{"a":1, "b":2}.a',
  '{1:2u, 2u:3}',
  'int(1u) + int(uint("1"))',
  'false && !true || false ? 2 : 3',
  'b"abc" + b"def"',
  '1.0 + 2.0 * 3.0 - 1.0 / 2.20202 != 66.6',
  'null == null && null != null',
  '1 == 1 && 2 != 1',
  '1 + 2 * 3 - 1 / 2 == 6 % 1',
  '"abc" + "def"',
  '1u + 2u * 3u - 1u / 2u == 6u % 1u',
  'size([] + [1])',
  '1 in [1, 2, 3]',
  '1 in dyn([1, 2, 3])',
  'type(null) == null_type',
  'type(type) == type',
  "[dyn('string')] + [1]",
  '[1].map(x, [x, x]).map(x, [x, x])',
  'list == type([1]) && map == type({1:2u})',
];
const CEL_GO_REFUSED: readonly string[] = [
  'foo',
  '1 + x',
  'fun()',
  "'string'.fun()",
  '[].length',
  'undef',
  'undef()',
  '[].map(x, [].map(y, x in y && y in x))',
];

/** Where cel-js 8 and cel-go's test configuration disagree; none refuses a condition cel-go accepts but the last. */
const CEL_GO_DEVIATIONS: ReadonlyArray<readonly [expression: string, why: string]> = [
  // cel-go's checker tests leave cross-type numeric comparisons off; cel-spec allows them and cel-js has them: accepted.
  ['1 < 1.0 && 1u < 1.0 && 1.0 < 1 && 1.0 < 1u && 1 < 1u && 1u < 1', 'cross-type numeric comparison accepted'],
  // A map() with a filter over an empty map: cel-js cannot type the filter's variable. Not a form an IAM condition takes.
  ['[{}.map(c,c,c)]+[{}.map(c,c,c)]', 'refused by cel-js, typed by cel-go'],
];

describe("cel-go's type-checker tests that need no declarations", () => {
  const corpus = new Map(checkingCases.map((c) => [c.original.expr, c]));
  test.each(CEL_GO_TYPED)('typed by cel-go and cel-js: %s', (expression) => {
    const expected = corpus.get(expression);
    expect(expected?.type).toBeDefined();
    expect(expected?.error).toBeUndefined();
    expect(celType(expression).error).toBeUndefined();
  });

  test.each(CEL_GO_REFUSED)('refused by cel-go and cel-js: %s', (expression) => {
    expect(corpus.get(expression)?.error).toBeDefined();
    expect(celType(expression).error).toBeDefined();
  });

  test.each(CEL_GO_DEVIATIONS)('deviation (list is current): %s (%s)', (expression, why) => {
    expect(corpus.has(expression)).toBe(true);
    expect(celType(expression).error === undefined).toBe(why.startsWith('cross-type'));
  });

  test('types as cel-go names them', () => {
    expect(['[1]', '[1, "A"]', '{1:2u, 2:3u}', '[1].map(x, [x, x]).map(x, [x, x])'].map((e) => celType(e).type)).toEqual([
      'list<int>',
      'list',
      'map<int, uint>',
      'list<list<list<int>>>',
    ]);
  });
});

describe('CEL standard library overloads cel-js 8 lacks are declared (cel-spec langdef.md, "List of Standard Definitions")', () => {
  test.each([
    'matches(resource.name, "^projects/[a-z-]+/")',
    'string(request.time) < "2028"',
    'string(duration("60s")) == "60s"',
    'int(request.time) < 1900000000',
    'timestamp(request.time) == request.time',
    'duration(duration("1s")) == duration("1s")',
    'int(1u) == 1',
    'b"a" < b"b"',
  ])('%s', (expression) => {
    expect(accepted(expression)).toBe(true);
  });
});

describe('what Google may refuse but its reference leaves uncertain is a warning', () => {
  test.each<[string, string, RegExp]>([
    [
      "api.getAttribute('somekey', []).hasOnly(['a'])",
      `${REFERENCE}#api-attributes`,
      /^Google's reference documents the api\.getAttribute\(\) keys `iam\.googleapis\.com\/modifiedGrantsByRole` and `storage\.googleapis\.com\/objectListPrefix`, not `somekey`: a service may provide it, or Google may refuse the condition/,
    ],
    [
      'resource.name.lowerAscii() == "a"',
      'cel-go ext/strings.go',
      /^`lowerAscii\(\)` is from cel-go's strings extension, not CEL's standard library: .* at line 1, column 15:/,
    ],
    ['principal.type == "iam.googleapis.com/ServiceAccount"', `${REFERENCE}#principal`, /principal access boundary policy bindings/],
  ])('%s (%s)', (expression, _source, reason) => {
    expect(accepted(expression)).toBe(true);
    const warnings = conditionWarnings(expression);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].field).toBe('condition.expression');
    expect(warnings[0].reason).toMatch(reason);
  });

  test('a documented key, a refused condition and one that does not parse have none', () => {
    expect(conditionWarnings("api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', []).hasOnly(['roles/viewer'])")).toEqual([]);
    expect(conditionWarnings("api.getAttribute('somekey', '') < request.time")).toEqual([]);
    expect(conditionWarnings('request.time <')).toEqual([]);
  });

  test('checkGrantConditions names each field as validateGrantValues does, known values only', () => {
    const odd = { title: 't', expression: "api.getAttribute('k', '') == 'x'" };
    const policy = {
      mode: 'policy',
      resource: { name: 'projects/p/secrets/s' },
      bindings: [
        { role: 'roles/viewer', members: ['user:a@example.com'] },
        { role: 'roles/secretmanager.secretAccessor', members: ['user:a@example.com'], condition: odd },
      ],
    } as unknown as Grant;
    expect(checkGrantConditions(policy).map((w) => w.field)).toEqual(['bindings[1].condition.expression']);
    const member = { mode: 'member', role: 'roles/viewer', member: 'user:a@example.com', condition: odd } as unknown as Grant;
    expect(checkGrantConditions(member).map((w) => w.field)).toEqual(['condition.expression']);
    expect(checkGrantConditions(member, (value) => value !== odd.expression)).toEqual([]);
  });
});

describe("timestamp literals as Go's time.Parse(time.RFC3339, …) reads them, in CEL's range", () => {
  test.each([
    '2027-01-01T00:00:00Z',
    '2024-02-29T23:59:59Z',
    '2027-01-01T09:00:00.123456789+01:00',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '2027-06-30T12:00:00-07:30',
  ])('accepts %s', (text) => {
    expect(timestampProblem(text)).toBeUndefined();
  });

  test.each<[string, RegExp]>([
    ['2027-13-01T00:00:00Z', /^month 13 does not exist$/],
    ['2027-00-10T00:00:00Z', /^month 00 does not exist$/],
    ['2023-02-29T00:00:00Z', /^February 2023 has no day 29/],
    ['1900-02-29T00:00:00Z', /^February 1900 has no day 29/],
    ['2027-04-31T00:00:00Z', /^April 2027 has no day 31 \(it has 30 days\)$/],
    ['2027-01-32T00:00:00Z', /^January 2027 has no day 32$/],
    ['2027-01-01T23:60:00Z', /^minute 60 does not exist/],
    ['2027-01-01T23:59:60Z', /^second 60 does not exist .*leap second/],
    ['2027-01-01T00:00:00+24:00', /^the zone offset \+24:00 does not exist$/],
    ['0001-01-01T00:00:00+01:00', /outside CEL's range/],
    ['2027-01-01 00:00:00Z', /^expected an RFC 3339 time/],
    ['2027-01-01T00:00:00', /^expected an RFC 3339 time/],
    ['2027-1-1T00:00:00Z', /^expected an RFC 3339 time/],
    ['2027-01-01', /^a date alone/],
  ])('refuses %s', (text, problem) => {
    expect(timestampProblem(text)).toMatch(problem);
  });
});

describe("duration literals as Go's time.ParseDuration reads them", () => {
  test.each(['3600s', '1h', '1.5h', '1h30m', '-1m30s', '+5s', '0', '.5s', '5.s', '300ms', '10us', '10µs', '10μs', '1ns', '2562047h'])(
    'accepts %s',
    (text) => {
      expect(durationProblem(text)).toBeUndefined();
    },
  );

  test.each<[string, RegExp]>([
    ['', /^expected numbers with units/],
    ['s', /^expected numbers with units/],
    ['.s', /^expected numbers with units/],
    ['3600', /^the number 3600 has no unit/],
    ['1d', /^"d" is not a unit/],
    ['1h 30m', /^" " is not a unit|^"h " is not a unit/],
    ['2562048h', /does not fit Go's 64-bit nanoseconds/],
  ])('refuses %j', (text, problem) => {
    expect(durationProblem(text)).toMatch(problem);
  });
});
