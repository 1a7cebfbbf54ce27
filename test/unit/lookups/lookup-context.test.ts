/**
 * The context file of the Direct-form lookups: where it is, its keys, its
 * stable text, refreshes, and what it says about a file it cannot use.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LOOKUP_CONTEXT_FILE, LookupContext } from '../../../lib/lookups/lookup-context';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookup-context-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('by default the file sits beside the nearest cdktf.json, from the working directory upwards', () => {
  fs.writeFileSync(path.join(dir, 'cdktf.json'), '{}');
  fs.mkdirSync(path.join(dir, 'src', 'stacks'), { recursive: true });
  const cwd = process.cwd();
  try {
    process.chdir(path.join(dir, 'src', 'stacks'));
    expect(LookupContext.open(undefined, {}).file).toBe(path.join(fs.realpathSync(dir), LOOKUP_CONTEXT_FILE));
    expect(LookupContext.open(undefined, { CDKTF_GOOGLE_IAM_CONTEXT_FILE: 'mine.json' }).file).toBe(
      path.join(fs.realpathSync(dir), 'src', 'stacks', 'mine.json'),
    );
    expect(LookupContext.open('/elsewhere/given.json', { CDKTF_GOOGLE_IAM_CONTEXT_FILE: 'mine.json' }).file).toBe('/elsewhere/given.json');
  } finally {
    process.chdir(cwd);
  }
});

test('keys name the lookup and its given arguments, sorted; absent arguments are left out', () => {
  expect(LookupContext.key('getImportJob', { location: 'us-central1', importJobId: 'inv', project: 'p', view: undefined })).toBe(
    'getImportJob:importJobId=inv:location=us-central1:project=p',
  );
});

test('entries are written sorted (keys and nested keys), so the text depends on the content only; other entries stay', () => {
  const file = path.join(dir, 'context.json');
  const context = LookupContext.open(file, {});
  context.set('b', { version: 3, etag: 'E', bindings: [{ role: 'r', members: ['m'] }] });
  context.set('a', { state: 'DONE' });
  expect(fs.readFileSync(file, 'utf8')).toBe(
    `${JSON.stringify({ a: { state: 'DONE' }, b: { bindings: [{ members: ['m'], role: 'r' }], etag: 'E', version: 3 } }, undefined, 2)}\n`,
  );
  expect(context.get('a')).toEqual({ state: 'DONE' });
  expect(context.get('missing')).toBeUndefined();
  expect(fs.readdirSync(dir)).toEqual(['context.json']);
});

test('CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS hides the entries it names, or all of them with *', () => {
  const file = path.join(dir, 'context.json');
  LookupContext.open(file, {}).set('k1', { n: 1 });
  LookupContext.open(file, {}).set('k2', { n: 2 });
  const refreshing = (value: string) => LookupContext.open(file, { CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS: value });
  expect([refreshing('k1').get('k1'), refreshing('k1').get('k2')]).toEqual([undefined, { n: 2 }]);
  expect([refreshing(' k2 , k1').get('k1'), refreshing('k2,k1').get('k2')]).toEqual([undefined, undefined]);
  expect([refreshing('*').get('k1'), refreshing('*').get('k2')]).toEqual([undefined, undefined]);
});

test('a file that is not a JSON object, or an entry that is not an object, is an error naming the file and what to do', () => {
  const file = path.join(dir, 'context.json');
  fs.writeFileSync(file, '{"k": ');
  expect(() => LookupContext.open(file, {}).get('k')).toThrow(`${file}: not JSON (`);
  fs.writeFileSync(file, '[]');
  expect(() => LookupContext.open(file, {}).get('k')).toThrow(`${file}: expected a JSON object of lookup results`);
  fs.writeFileSync(file, '{"k": "text"}');
  expect(() => LookupContext.open(file, {}).get('k')).toThrow(
    `${file}: the entry "k" is not an object; delete it to read the lookup again`,
  );
});

test('CDKTF_GOOGLE_IAM_NO_LOOKUPS refuses a read of Google, naming the file and the missing key; an entry in the file is still used', () => {
  const file = path.join(dir, 'context.json');
  LookupContext.open(file, {}).set('kept', { n: 1 });
  const strict = LookupContext.open(file, { CDKTF_GOOGLE_IAM_NO_LOOKUPS: '1' });
  expect(strict.get('kept')).toEqual({ n: 1 });
  expect(() => strict.checkMayRead('GoogleLookups.getImportJob', 'missing')).toThrow(
    `GoogleLookups.getImportJob: ${file} has no entry "missing", and CDKTF_GOOGLE_IAM_NO_LOOKUPS is set, so Google is not asked.`,
  );
  expect(() => LookupContext.open(file, { CDKTF_GOOGLE_IAM_NO_LOOKUPS: '0' }).checkMayRead('l', 'missing')).not.toThrow();
  expect(() => LookupContext.open(file, {}).checkMayRead('l', 'missing')).not.toThrow();
});

test('a context file in a folder that does not exist yet is written there', () => {
  const file = path.join(dir, 'per-env', 'prod', 'context.json');
  LookupContext.open(file, {}).set('k', { n: 1 });
  expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ k: { n: 1 } });
});
