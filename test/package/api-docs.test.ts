/**
 * API.md is the API reference jsii-docgen generates from the jsii assembly
 * (`.jsii`, written by `npm run build`). This regenerates it from the current
 * assembly into a temporary directory and fails when the committed file
 * differs. Nothing in the repository is written.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '..', '..');
const API_MD = path.join(ROOT, 'API.md');

test('API.md matches what jsii-docgen generates from the current .jsii', () => {
  expect(fs.existsSync(path.join(ROOT, '.jsii'))).toBe(true);
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-docgen-'));
  try {
    // The same generator and arguments as `npm run docgen`, but writing into outdir.
    const generated = path.join(outdir, 'API.md');
    const result = spawnSync(process.execPath, [require.resolve('jsii-docgen/bin/jsii-docgen'), '-o', generated], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect({ status: result.status, error: result.error, stderr: result.stderr }).toEqual(expect.objectContaining({ status: 0 }));

    const expected = fs.readFileSync(generated, 'utf8');
    const committed = fs.existsSync(API_MD) ? fs.readFileSync(API_MD, 'utf8') : undefined;
    if (committed !== expected) {
      throw new Error(
        committed === undefined
          ? 'API.md is missing: run `npm run docgen` and commit API.md'
          : `API.md is out of date (${firstDifference(committed, expected)}): run \`npm run docgen\` and commit API.md`,
      );
    }
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});

function firstDifference(committed: string, expected: string): string {
  const a = committed.split('\n');
  const b = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `first difference at line ${i + 1}: committed ${JSON.stringify(a[i] ?? '<end of file>')}, generated ${JSON.stringify(b[i] ?? '<end of file>')}`;
    }
  }
  return 'they differ';
}
