/**
 * The jsii public API does not change by accident: the assembly's types, with
 * their members and types, are compared with test/package/public-api.txt,
 * taken from the assembly before the generated L1 bindings were rewritten to
 * share their nested structs (issue 37). A deliberate change of the public
 * API updates that file in the same commit:
 * `npm run compile && npx ts-node --transpile-only test/support/public-api.ts > test/package/public-api.txt`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { publicApi } from '../support/public-api';

const ROOT = path.join(__dirname, '..', '..');
const SNAPSHOT = fs.readFileSync(path.join(__dirname, 'public-api.txt'), 'utf8').trimEnd().split('\n');

test.each([
  ['cdktf-google-iam', ROOT],
  ['cdktn-google-iam', path.join(ROOT, 'dist-cdktn')],
])('%s: the public types, their members and their types are as committed', (_name, packageDir) => {
  expect(publicApi(packageDir)).toEqual(SNAPSHOT);
});
