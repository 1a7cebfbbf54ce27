/**
 * The folders of lib/ depend on each other one way: no two import each other,
 * directly or around a loop. The layout also says what runs where: lib/iam is
 * pure (no I/O, no framework), lib/api and lib/runner never load the
 * framework (they run inside terraform), and only the construct layer does.
 */
import * as fs from 'fs';
import * as path from 'path';

const LIB = path.join(__dirname, '..', '..', 'lib');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** folder -> the folders and packages it imports (type-only imports included: they still couple the code). */
function imports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(LIB)) {
    const folder = path.relative(LIB, path.dirname(file)).split(path.sep)[0] || '.';
    const targets = graph.get(folder) ?? new Set<string>();
    for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)) {
      if (spec.startsWith('.')) {
        const target = path.relative(LIB, path.resolve(path.dirname(file), spec)).split(path.sep)[0];
        if (target && target !== folder && !target.startsWith('..')) targets.add(target);
      } else {
        targets.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      }
    }
    graph.set(folder, targets);
  }
  return graph;
}

test('no cycle between the folders of lib/', () => {
  const graph = imports();
  const cycles: string[] = [];
  const visit = (node: string, trail: string[]): void => {
    if (trail.includes(node)) {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      return;
    }
    for (const next of graph.get(node) ?? []) if (graph.has(next)) visit(next, [...trail, node]);
  };
  for (const folder of graph.keys()) visit(folder, []);
  expect([...new Set(cycles)]).toEqual([]);
});

test('what runs inside terraform, and the IAM domain, never load the framework', () => {
  const graph = imports();
  for (const folder of ['iam', 'api', 'runner']) {
    expect({ folder, framework: [...(graph.get(folder) ?? [])].filter((m) => ['cdktf', 'cdktn', 'constructs'].includes(m)) }).toEqual({
      folder,
      framework: [],
    });
  }
  expect(
    [...(graph.get('iam') ?? [])].filter((m) => !['crypto', 'iam'].includes(m) && !graph.has(m) && m !== '@marcbachmann/cel-js'),
  ).toEqual([]);
});
