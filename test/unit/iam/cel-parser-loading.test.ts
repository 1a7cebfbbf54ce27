/**
 * Where lib/iam takes its CEL parser from: the CommonJS copy the build writes
 * (dist/vendor/cel.js, what the published package ships) when there is one,
 * else @marcbachmann/cel-js itself, so that a checkout that has not been
 * built parses conditions the same way.
 */
import * as path from 'path';
import type * as CelParser from '../../../lib/iam/cel-parser';

const VENDORED = path.join(__dirname, '..', '..', '..', 'dist', 'vendor', 'cel.js');

const EXPRESSIONS = [
  'request.time < timestamp("2030-01-01T00:00:00Z")',
  'resource.name.startsWith("projects/p/") && resource.type == "x"',
  'a &&',
  '"unterminated',
];

/**
 * lib/iam/cel-parser loaded afresh; `vendoredCopy` stands for requiring
 * dist/vendor/cel.js (a thrown error: the copy is missing or broken). The
 * parser loads CEL on first use, so it parses once before the stand-in goes.
 */
function loadParser(vendoredCopy?: () => never): typeof CelParser {
  let parser: typeof CelParser | undefined;
  jest.isolateModules(() => {
    if (vendoredCopy) jest.doMock(VENDORED, vendoredCopy, { virtual: true });
    try {
      parser = require('../../../lib/iam/cel-parser');
      parser!.parseCel('true');
    } finally {
      jest.dontMock(VENDORED);
    }
  });
  return parser!;
}

test('without dist/vendor/cel.js, the package itself parses, with the same results as the vendored copy', () => {
  const fromSource = loadParser(() => {
    throw Object.assign(new Error(`Cannot find module '${VENDORED}'`), { code: 'MODULE_NOT_FOUND' });
  });
  const fromBuild = loadParser();
  for (const expression of EXPRESSIONS) {
    expect(fromSource.parseCel(expression)).toEqual(fromBuild.parseCel(expression));
  }
  expect(fromSource.parseCel('a &&')).toMatchObject({ ok: false, error: { offset: expect.any(Number) } });
});

test('a vendored copy that fails to load for another reason is an error, not a silent fallback', () => {
  expect(() =>
    loadParser(() => {
      throw new SyntaxError('Unexpected token in the vendored copy');
    }),
  ).toThrow('Unexpected token in the vendored copy');
});
