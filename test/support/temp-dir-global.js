// Jest globalSetup/globalTeardown: every temporary file of a test run (workspaces, state folders, the
// laid-out provider, and whatever terraform and the provider make) goes into one folder, removed at the end.
// The workers Jest starts, and every process they start, inherit TMPDIR.
const fs = require('fs');
const os = require('os');
const path = require('path');

const VARIABLE = 'CDKTF_GOOGLE_IAM_TEST_TMPDIR';

module.exports.setup = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-tests-'));
  // Others may pass through (not list), as through the system temp dir: the two-user tests need it.
  fs.chmodSync(dir, 0o711);
  process.env[VARIABLE] = dir;
  process.env.TMPDIR = dir;
};

module.exports.teardown = async () => {
  const dir = process.env[VARIABLE];
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
};
