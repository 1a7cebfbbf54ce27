/**
 * `npm run demo` (after its build), as a user runs it: short by default (the
 * policies, the drift report, the repair run exactly as printed, both lookup
 * forms' results), everything Terraform says with --verbose.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCommand } from '../../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const TS_NODE = path.join(ROOT, 'node_modules', '.bin', 'ts-node');

async function demo(...args: string[]): Promise<string> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-e2e-'));
  try {
    const result = await runCommand(TS_NODE, ['--transpile-only', path.join(ROOT, 'examples', 'demo.ts'), ...args], ROOT, {
      DEMO_OUTDIR: outdir,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    return result.stdout;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

test('the demo shows the grants, drift as a change of the plan, the repair by apply, and both lookup forms, in under 60 lines', async () => {
  const output = await demo();
  expect(output.split('\n').length).toBeLessThan(60);
  expect(output).toContain('GoogleLookups.getImportJob: Inventory import 2026 is IMPORT_JOB_STATE_COMPLETED');
  expect(output).toContain(
    'roles/datamigration.editor: serviceAccount:reporting@demo-project.iam.gserviceaccount.com, user:alice@example.com',
  );
  expect(output).toMatch(/# googleiam_migration_job_iam_binding\.orders-db_datamigration_editor_[0-9a-f]{8} will be updated in-place/);
  // The drift excerpt says what it shows: the binding, its members attribute, the member apply puts back.
  expect(output).toMatch(
    /What the plan would change, in its own words .*\n +# googleiam_migration_job_iam_binding\.\S+ will be updated in-place\n(?: +~ etag .*\n)? +~ members = \[\n +\+ +"user:alice@example\.com",/,
  );
  expect(output).toContain('=== The repair: a plain terraform apply');
  expect(output).toContain('terraform plan: no changes');
  expect(output).toContain('import_job_state = "IMPORT_JOB_STATE_COMPLETED"');
  expect(output).toContain('address_group_bindings = [{"condition"');
  expect(output).not.toContain('Terraform will perform the following actions');
});

test('--verbose adds everything Terraform prints', async () => {
  const output = await demo('--verbose');
  expect(output).toContain('Terraform will perform the following actions');
  expect(output).toContain('$ (cd ');
});
