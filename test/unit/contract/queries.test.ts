import { ContractError } from '../../../lib/contract/contract-error';
import { importJobQuery, locatedPolicyQuery, namedPolicyQuery, parseReadQuery, serializeReadQuery } from '../../../lib/contract/read-query';
import type { IamResource } from '../../../lib/iam/grant';
import { thrownBy } from '../../support/rejection';

const AG_TYPE = { service: 'networksecurity', apiVersion: 'v1', nameFormat: { collection: 'addressGroups', label: 'address group' } };
const SECRET: IamResource = { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p-123456/secrets/s' };

/** The ContractError a parse throws (the test fails if it throws nothing or something else). */
const refusal = (parse: () => unknown): ContractError => thrownBy(parse, ContractError);

describe('the read query', () => {
  test.each([
    [
      'a typed policy, project given',
      locatedPolicyQuery(AG_TYPE, { project: 'p-123456', location: 'global', id: 'ag' }, '1'),
      {
        kind: 'iamPolicy',
        service: 'networksecurity',
        apiVersion: 'v1',
        version: 1,
        target: { collection: 'addressGroups', project: 'p-123456', location: 'global', id: 'ag' },
      },
    ],
    [
      "a typed policy in the runner's default project",
      locatedPolicyQuery(AG_TYPE, { location: 'global', id: 'ag' }, '3'),
      {
        kind: 'iamPolicy',
        service: 'networksecurity',
        apiVersion: 'v1',
        version: 3,
        target: { collection: 'addressGroups', location: 'global', id: 'ag' },
      },
    ],
    [
      'any policy by name, each getIamPolicy shape',
      namedPolicyQuery({ ...SECRET, getIamPolicyMethod: 'POST_QUERY' }, '0'),
      {
        kind: 'iamPolicy',
        service: 'secretmanager',
        apiVersion: 'v1',
        getIamPolicyMethod: 'POST_QUERY',
        version: 0,
        target: { name: SECRET.name },
      },
    ],
    [
      'by name, the shape Google publishes',
      namedPolicyQuery(SECRET, ''),
      { kind: 'iamPolicy', service: 'secretmanager', apiVersion: 'v1', version: 3, target: { name: SECRET.name } },
    ],
    [
      'an import job, with its view',
      importJobQuery({ project: 'p-123456', location: 'us-central1', importJobId: 'job' }, 'IMPORT_JOB_VIEW_FULL'),
      {
        kind: 'importJob',
        view: 'IMPORT_JOB_VIEW_FULL',
        target: { collection: 'importJobs', project: 'p-123456', location: 'us-central1', id: 'job' },
      },
    ],
    [
      'an import job, the default view',
      importJobQuery({ location: 'us-central1', importJobId: 'job' }, undefined),
      { kind: 'importJob', target: { collection: 'importJobs', location: 'us-central1', id: 'job' } },
    ],
  ])('%s round-trips, with and without a label', (_what, fields, parsed) => {
    expect(parseReadQuery(JSON.stringify(serializeReadQuery(fields)))).toEqual(parsed);
    const labelled = serializeReadQuery(fields, 'stack/Read');
    expect(Object.keys(labelled).pop()).toBe('label');
    expect(parseReadQuery(JSON.stringify(labelled))).toEqual({ ...parsed, label: 'stack/Read' });
  });

  test.each([
    ['{', 'shape', '', /not JSON/],
    ['{"kind":"iamPolicy","service":3}', 'shape', 'service', /expected a string/],
    ['{"kind":"secrets"}', 'shape', 'kind', /expected iamPolicy, importJob/],
    [JSON.stringify({ kind: 'iamPolicy', apiVersion: 'v1', name: SECRET.name }), 'shape', 'service', /expected a non-empty string/],
    [
      JSON.stringify({ ...serializeReadQuery(namedPolicyQuery(SECRET, '3')), service: 'Secret-Manager' }),
      'value',
      'service',
      /expected a Google API name/,
    ],
    [
      JSON.stringify({ ...serializeReadQuery(namedPolicyQuery(SECRET, '3')), apiVersion: 'v1/../v2' }),
      'value',
      'apiVersion',
      /Google API version/,
    ],
    [JSON.stringify({ ...serializeReadQuery(namedPolicyQuery(SECRET, '3')), name: 'projects/p%2F..' }), 'value', 'name', /contains "%"/],
    [
      JSON.stringify({ ...serializeReadQuery(namedPolicyQuery(SECRET, '3')), getIamPolicyMethod: 'PUT' }),
      'value',
      'getIamPolicyMethod',
      /expected GET, POST, POST_QUERY/,
    ],
    [JSON.stringify(serializeReadQuery(namedPolicyQuery(SECRET, '2'))), 'value', 'optionsRequestedPolicyVersion', /expected 0, 1 or 3/],
    [JSON.stringify(serializeReadQuery(namedPolicyQuery(SECRET, 'three'))), 'value', 'optionsRequestedPolicyVersion', /expected 0, 1 or 3/],
    [
      JSON.stringify(serializeReadQuery(locatedPolicyQuery(AG_TYPE, { project: 'P', location: 'global', id: 'ag' }, '3'))),
      'value',
      'project',
      /./,
    ],
    [JSON.stringify(serializeReadQuery(locatedPolicyQuery(AG_TYPE, { location: 'a/b', id: 'ag' }, '3'))), 'value', 'location', /./],
    [
      JSON.stringify({ ...serializeReadQuery(locatedPolicyQuery(AG_TYPE, { location: 'global', id: 'ag' }, '3')), collection: 'a/b' }),
      'shape',
      'collection',
      /name of a collection/,
    ],
    [
      JSON.stringify(serializeReadQuery(importJobQuery({ location: 'us-central1', importJobId: 'job' }, 'FULL'))),
      'value',
      'view',
      /IMPORT_JOB_VIEW_FULL/,
    ],
    [JSON.stringify(serializeReadQuery(importJobQuery({ location: 'us-central1', importJobId: 'job/..' }, undefined))), 'value', 'id', /./],
  ])('%s is refused (%s), naming %s', (json, kind, field, reason) => {
    const error = refusal(() => parseReadQuery(json));
    expect(error).toMatchObject({ messageName: 'read query', kind, field });
    expect(error.message).toMatch(reason);
  });

  test('a refused value names the construct that reads', () => {
    const json = JSON.stringify(serializeReadQuery(namedPolicyQuery({ ...SECRET, name: 'projects/p?x' }, '3'), 'stack/Policy'));
    expect(refusal(() => parseReadQuery(json)).message).toMatch(
      /^stack\/Policy: the query on stdin holds a value the constructs would refuse/,
    );
  });
});
