// The floor under the runner benchmark: the same getIamPolicy + setIamPolicy
// a grant makes, in a fresh process with nothing else (no queue, lock, spec
// or code cache), either through the google-auth-library bundle the runner
// uses (`google-auth`) or through bare node:http (`node-http`, measurement only).
// Reads the emulator's endpoint and token from the environment, as the runner does.
'use strict';
const [mode, vendor] = process.argv.slice(2);
const root = process.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY;
const token = process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
const { resource, role, member } = JSON.parse(process.env.CDKTF_GOOGLE_IAM_GRANT);
const members = [member];
const url = `${root}v1/${resource.name}`;

function grant(policy) {
  return { ...policy, bindings: [...(policy.bindings ?? []), { role, members }] };
}

async function viaGoogleAuth() {
  const { OAuth2Client } = require(vendor);
  const client = new OAuth2Client();
  client.setCredentials({ access_token: token });
  const read = await client.request({ url: `${url}:getIamPolicy`, params: { 'options.requestedPolicyVersion': '3' }, retry: false });
  await client.request({ url: `${url}:setIamPolicy`, method: 'POST', data: { policy: grant(read.data) }, retry: false });
}

function call(suffix, method, body) {
  const http = require('http');
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}${suffix}`,
      { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          response.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${response.statusCode} ${text}`)),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function viaNodeHttp() {
  const policy = await call(':getIamPolicy?options.requestedPolicyVersion=3', 'GET');
  await call(':setIamPolicy', 'POST', JSON.stringify({ policy: grant(policy) }));
}

(mode === 'google-auth' ? viaGoogleAuth() : viaNodeHttp()).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  },
);
