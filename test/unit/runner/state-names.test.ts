import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Grant } from '../../../lib/iam/grant';
import { endpointGrantKey, PolicyIdentity } from '../../../lib/iam/identity';
import { PolicyQueue } from '../../../lib/runner/policy-queue';
import { RunMarkers } from '../../../lib/runner/run-markers';
import { StateDir } from '../../../lib/runner/state-dir';

// File names in the runner's state folder, as earlier releases wrote them: a runner of
// this release must find the lock, queue and markers of one still running.
const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const resource = { service: 'networksecurity', apiVersion: 'v1', name: AP };
const rootUrl = 'https://networksecurity.googleapis.com/';
const grant: Grant = {
  mode: 'member',
  resource,
  role: 'roles/viewer',
  member: 'user:alice@example.com',
  condition: { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
};

function tempState(): StateDir {
  return StateDir.open({ CDKTF_GOOGLE_IAM_STATE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'state-names-')) });
}

test("a policy's lock and queue folder is named by its queue key", () => {
  const state = tempState();
  const key = PolicyIdentity.of(resource).queueKey({ rootUrl, credentials: 'sha256:abc' });
  new PolicyQueue<string, string>(state, key, String, String);
  expect(fs.readdirSync(path.join(state.root, 'queues'))).toEqual(['f505046bbfbfd1350f647a1031abd473']);
});

test("a grant's run marker is named by its endpoint grant key", () => {
  const state = tempState();
  const markers = new RunMarkers(state, '2030-01-01T00:00:00Z', 4242);
  markers.markApplied(endpointGrantKey(grant, rootUrl));
  expect(fs.readdirSync(path.join(state.root, 'runs', markers.run!))).toEqual(['94c89c6fba5c4e579401cdaacc0e431a']);
  expect(markers.wasApplied(endpointGrantKey(grant, rootUrl))).toBe(true);
  expect(markers.wasApplied(endpointGrantKey(grant, 'http://127.0.0.1:8080/'))).toBe(false);
});
