/**
 * The constructs (at synth) and the runner's parsers (at apply and plan) refuse the same service names, API
 * versions and resource names, with the same reason: the rules live in one place (lib/api/resource-validation.ts).
 */
import { Testing, TerraformStack } from 'cdktf';
import { GoogleIamMember } from '../../../lib';
import { ContractError } from '../../../lib/contract/contract-error';
import { parseGrant } from '../../../lib/contract/grant';
import { parseReadQuery } from '../../../lib/contract/read-query';
import { ConstructValidationError } from '../../../lib/synth/errors';

const GOOD = { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p-123456/secrets/s' };

/** The construct's refusal (field and reason), or undefined when it accepts. */
function atSynth(resource: typeof GOOD): { field: string; reason: string } | undefined {
  try {
    new GoogleIamMember(new TerraformStack(Testing.app(), 'stack'), 'G', {
      resource,
      role: 'roles/secretmanager.secretAccessor',
      member: 'user:a@example.com',
    });
    return undefined;
  } catch (error) {
    if (!(error instanceof ConstructValidationError)) throw error;
    return { field: error.field, reason: error.reason };
  }
}

function refusedBy(parse: () => unknown): { field: string; reason: string } | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    return { field: error.field, reason: error.reason };
  }
}

const atApply = (resource: typeof GOOD) =>
  refusedBy(() =>
    parseGrant(JSON.stringify({ mode: 'member', resource, role: 'roles/secretmanager.secretAccessor', member: 'user:a@example.com' })),
  );
const atPlan = (resource: typeof GOOD) => refusedBy(() => parseReadQuery(JSON.stringify({ kind: 'iamPolicy', ...resource, version: '3' })));

test.each([
  ['a good resource', {}, true],
  ['a service with capitals', { service: 'SecretManager' }, false],
  ['a service with .googleapis.com', { service: 'secretmanager.googleapis.com' }, false],
  ['a service with a dash', { service: 'secret-manager' }, false],
  ['a service of 64 characters', { service: `s${'a'.repeat(63)}` }, false],
  ['a service with a slash', { service: 'evil.example.com/x' }, false],
  ['an unknown service', { service: 'nosuchapi' }, false],
  ['a service served at other paths', { service: 'storage', apiVersion: 'v1', name: 'b/bucket' }, false],
  ['API version v1beta1', { service: 'pubsub', apiVersion: 'v1', name: 'projects/p-123456/topics/t' }, true],
  ['API version 1', { apiVersion: '1' }, false],
  ['API version v1main', { apiVersion: 'v1main' }, false],
  ['API version v1/../v2', { apiVersion: 'v1/../v2' }, false],
  ['a version the API lacks', { apiVersion: 'v9' }, false],
  ['a name with %', { name: 'projects/p-123456/secrets/s%2F..' }, false],
  ['a name with ?', { name: 'projects/p-123456/secrets/s?alt=media' }, false],
  ['a name with #', { name: 'projects/p-123456/secrets/s#x' }, false],
  ['a name with a space', { name: 'projects/p-123456/secrets/s x' }, false],
  ['a name with ..', { name: 'projects/p-123456/secrets/../x' }, false],
  ['a name with //', { name: 'projects//secrets/s' }, false],
  ['a name with a trailing slash', { name: 'projects/p-123456/secrets/s/' }, false],
  ['a name with a verb', { name: 'projects/p-123456/secrets/s:getIamPolicy' }, false],
  ['a domain-scoped project', { name: 'projects/example.com:p/secrets/s' }, true],
  ['a name in no collection', { name: 'projects/p-123456/nothings/s' }, false],
])('%s: synth, apply and plan agree', (_what, change, accepted) => {
  const resource = { ...GOOD, ...change };
  const synth = atSynth(resource);
  expect(synth === undefined).toBe(accepted);
  const prefixless = synth && { field: synth.field.replace(/^resource\./, ''), reason: synth.reason };
  expect(atApply(resource)).toEqual(synth && { field: `resource.${prefixless!.field}`, reason: synth.reason });
  expect(atPlan(resource)).toEqual(prefixless);
});
