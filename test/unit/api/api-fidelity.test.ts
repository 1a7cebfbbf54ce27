/**
 * Every IAM request the library sends is one Google's Discovery documents
 * describe, for every collection of every API version of the pinned
 * `googleapis` clients (an oracle independent of the generated table: the
 * clients' own method URLs, verbs, parameters and request schemas): the path
 * with the name's parts where the client puts its path parameters, the verb,
 * query parameters the method has (the policy version among them where it
 * takes one), and bodies holding only fields of the request and Policy schemas.
 */
import type { GoogleRestClient, RestRequest } from '../../../lib/api/client';
import { GoogleIamApis } from '../../../lib/api/iam-apis';
import { IamPolicyApi } from '../../../lib/api/iam-policy';
import type { Policy } from '../../../lib/iam/types';

interface ClientMethod {
  api: string;
  url: string;
  method: string;
  setUrl?: string;
  setMethod?: string;
  sample?: string;
  resourcePath: string[];
  getParameters: string[];
  getBodyFields?: string[];
  setBodyFields?: string[];
  policyFields?: string[];
  pathParams: string[];
}

/** The generator reads the clients; the names of a collection are its templates (the sample's or the URL's). */
const generator = require('../../../scripts/generate-iam-table.js') as {
  readCollections(): ClientMethod[];
  nameTemplate(method: ClientMethod): { template: string };
  urlVersion(method: ClientMethod): string;
};
const methods = generator.readCollections();

/** Every field a policy can hold: a body with any field the schema lacks would be a 400. */
const POLICY: Policy = {
  version: 3,
  etag: 'BwX',
  bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } }],
  auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }],
};

function recording(): { client: GoogleRestClient; sent: RestRequest[] } {
  const sent: RestRequest[] = [];
  const client = { request: async (request: RestRequest) => (sent.push(request), { etag: 'BwY', version: 1 }) };
  return { client: client as unknown as GoogleRestClient, sent };
}

/** A name of the collection's template, and the value of each of its wildcards in order. */
function sampleName(template: string): { name: string; values: string[] } {
  const values: string[] = [];
  const name = template
    .split('/')
    .map((segment) => {
      if (segment === '*') return (values.push(`n${values.length + 1}`), values.at(-1)!);
      if (segment === '**') return (values.push(`r${values.length + 1}/s${values.length + 1}`), values.at(-1)!);
      return segment;
    })
    .join('/');
  return { name, values };
}

/** The client's URL with the name in it: `{+resource}` is the whole name, else each parameter one wildcard's value. */
function filled(url: string, name: string, values: string[]): string {
  if (url.includes('{+resource}')) return url.replace('{+resource}', name).slice(1);
  let i = 0;
  return url.replace(/\{\+?\w+\}/g, () => values[i++]).slice(1);
}

const cases = methods.map((m) => {
  const version = generator.urlVersion(m);
  const { template } = generator.nameTemplate(m);
  return [`${m.api} ${version} ${template}`, m, version, template] as const;
});

test('every client method of the pinned googleapis is checked (527), its template a collection of the table', () => {
  expect(cases).toHaveLength(527);
  for (const [label, , version, template] of cases) {
    expect([label, GoogleIamApis.apiVersion(label.split(' ')[0], version)?.collections.some((c) => c.template === template)]).toEqual([
      label,
      true,
    ]);
  }
});

test.each(cases)('%s: getIamPolicy and setIamPolicy as the Discovery client sends them', async (_label, m, version, template) => {
  const { name, values } = sampleName(template);
  const { client, sent } = recording();
  const api = new IamPolicyApi(client, { service: m.api, apiVersion: version, name });
  await api.getIamPolicy();
  const [read] = sent;
  expect(read.path).toBe(filled(m.url, name, values));
  expect(read.method ?? 'GET').toBe(m.method);
  for (const parameter of Object.keys(read.query ?? {}))
    expect([parameter, m.getParameters.includes(parameter)]).toEqual([parameter, true]);
  if (read.body !== undefined) {
    expect(Object.keys(read.body as object).every((field) => m.getBodyFields?.includes(field))).toBe(true);
  }
  const versioned = read.query !== undefined || read.body !== undefined;
  expect(versioned).toBe(m.getParameters.some((p) => /requestedPolicyVersion/i.test(p)) || m.getBodyFields?.includes('options') === true);
  if (m.setUrl === undefined) return;
  await api.setIamPolicy(POLICY);
  const write = sent[1];
  expect(write.path).toBe(filled(m.setUrl, name, values));
  expect(write.method).toBe(m.setMethod);
  const body = write.body as Record<string, unknown>;
  expect(Object.keys(body).filter((field) => !m.setBodyFields!.includes(field))).toEqual([]);
  const policy = (m.setBodyFields!.includes('policy') ? body.policy : body) as Record<string, unknown>;
  expect(Object.keys(policy).filter((field) => !m.policyFields!.includes(field))).toEqual([]);
  expect(policy.bindings).toEqual(POLICY.bindings);
});
