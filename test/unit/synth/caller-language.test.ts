import { callerCall, callerField, callerLanguage, callerMethod } from '../../../lib/synth/caller-language';
import { validationMessage } from '../../../lib/synth/errors';

const AGENTS = {
  TypeScript: undefined,
  Python: 'Python/3.11.2',
  Java: 'Java/17.0.15',
  'C#': 'DotNet/8.0.11/8.0.11/1.140.0',
  Go: 'go1.23.4/linux/amd64',
};

test.each(Object.entries(AGENTS))('JSII_AGENT of %s: %s', (name, agent) => {
  expect(callerLanguage(agent === undefined ? {} : { JSII_AGENT: agent }).name).toBe(name);
});

test('an unknown agent is taken for TypeScript (the names the docs and API.md use)', () => {
  expect(callerLanguage({ JSII_AGENT: 'Ruby/3.3' }).name).toBe('TypeScript');
});

const language = (name: keyof typeof AGENTS) => callerLanguage({ JSII_AGENT: AGENTS[name] });

test.each([
  [
    'TypeScript',
    'GoogleLookups.getImportJob',
    'auditConfigs[0].logType',
    `GoogleLookups.getImportJob({"importJobId":"a b","location":"l"})`,
  ],
  [
    'Python',
    'GoogleLookups.get_import_job',
    'audit_configs[0].log_type',
    `GoogleLookups.get_import_job(import_job_id="a b", location="l")`,
  ],
  ['Java', 'GoogleLookups.getImportJob', 'auditConfigs[0].logType', `GoogleLookups.getImportJob({"importJobId":"a b","location":"l"})`],
  ['C#', 'GoogleLookups.GetImportJob', 'AuditConfigs[0].LogType', `GoogleLookups.GetImportJob({"ImportJobId":"a b","Location":"l"})`],
  ['Go', 'GoogleLookups.GetImportJob', 'AuditConfigs[0].LogType', `GoogleLookups.GetImportJob({"ImportJobId":"a b","Location":"l"})`],
] as const)('%s: %s, %s, %s', (name, method, field, call) => {
  const lang = language(name);
  expect(callerMethod('GoogleLookups', 'getImportJob', lang)).toBe(method);
  expect(callerField('auditConfigs[0].logType', lang)).toBe(field);
  expect(callerCall(method, { importJobId: 'a b', location: 'l', project: undefined }, lang)).toBe(call);
});

test.each([
  ['TypeScript', `IamSuppressions.addSuppressions(scope, [{ id: 'it\\'s', reason: '<why>' }])`],
  ['Python', `IamSuppressions.add_suppressions(scope, [IamSuppression(id="it's", reason="<why>")])`],
  ['Java', `IamSuppressions.addSuppressions(scope, List.of(IamSuppression.builder().id("it's").reason("<why>").build()))`],
  ['C#', `IamSuppressions.AddSuppressions(scope, new IamSuppression[] { new IamSuppression { Id = "it's", Reason = "<why>" } })`],
  [
    'Go',
    `cdktfgoogleiam.IamSuppressions_AddSuppressions(scope, &[]*cdktfgoogleiam.IamSuppression{&cdktfgoogleiam.IamSuppression{Id: jsii.String("it's"), Reason: jsii.String("<why>")}})`,
  ],
] as const)('a static call with a list of structs, in %s: %s', (name, expected) => {
  const lang = language(name);
  const item = lang.struct('IamSuppression', { id: "it's", reason: '<why>' });
  expect(lang.staticCall('IamSuppressions', 'addSuppressions', ['scope', lang.list('IamSuppression', [item])])).toBe(expected);
});

test('validation messages spell the field as the calling language does (JSII_AGENT of this process)', () => {
  const saved = process.env.JSII_AGENT;
  try {
    process.env.JSII_AGENT = 'Python/3.11.2';
    expect(validationMessage('stack/Grant', 'condition.celExpression', 'x', 'bad')).toBe(
      'stack/Grant: condition.cel_expression: bad (got "x")',
    );
    expect(
      validationMessage('GoogleLookups.get_iam_policy', 'resource', 1, 'expected { service, apiVersion, name, policyReadMethod? }'),
    ).toBe('GoogleLookups.get_iam_policy: resource: expected { service, api_version, name, policy_read_method? } (got 1)');
    delete process.env.JSII_AGENT;
    expect(validationMessage('stack/Grant', 'condition.celExpression', 'x', 'bad')).toBe(
      'stack/Grant: condition.celExpression: bad (got "x")',
    );
  } finally {
    if (saved === undefined) delete process.env.JSII_AGENT;
    else process.env.JSII_AGENT = saved;
  }
});
