// Synthesizes one stack of `count` IAM members, either this library's
// AuthorizationPolicyIamMember (`grants`; `checks`: the same with the
// GoogleIamChecks aspect and its three reports) or the provider's native
// NetworkSecurityAddressGroupIamMember, and reports time and peak memory.
// Members are spread over one policy per 1,000 (Google allows 1,500
// principals per policy, and the library checks it at synth), alike for both.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const [kind, countArg, libDir] = process.argv.slice(2);
const count = Number(countArg);
const { App, Aspects, TerraformStack } = require('cdktf');
const { GoogleProvider } = require('@cdktf/provider-google/lib/provider');
const { NetworkSecurityAddressGroupIamMember } = require('@cdktf/provider-google/lib/network-security-address-group-iam-member');
const { AuthorizationPolicyIamMember, GoogleIamChecks } = require(libDir);

const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-synth-'));
const start = process.hrtime.bigint();
const app = new App({ outdir });
const stack = new TerraformStack(app, 'bench');
if (kind === 'checks') Aspects.of(app).add(new GoogleIamChecks());
new GoogleProvider(stack, 'google', { project: 'bench-project' });
const PER_POLICY = 1000;
for (let i = 0; i < count; i++) {
  const member = `user:member-${i}@example.com`;
  const p = Math.floor(i / PER_POLICY);
  if (kind === 'grants' || kind === 'checks') {
    new AuthorizationPolicyIamMember(stack, `M${i}`, {
      name: `projects/bench-project/locations/global/authorizationPolicies/ap-${p}`,
      role: 'roles/networksecurity.viewer',
      member,
    });
  } else {
    new NetworkSecurityAddressGroupIamMember(stack, `M${i}`, {
      project: 'bench-project',
      location: 'global',
      name: `projects/bench-project/locations/global/addressGroups/ag-${p}`,
      role: 'roles/compute.networkViewer',
      member,
    });
  }
}
app.synth();
const ms = Number(process.hrtime.bigint() - start) / 1e6;
fs.rmSync(outdir, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
