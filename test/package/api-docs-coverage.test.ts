/**
 * Every public type and member of the jsii assembly has documentation, as
 * awslint requires of aws-cdk: the API reference (API.md) and every
 * language's generated docs come from these comments. Optional props must
 * say what happens when they are left out (`@default`).
 */
import * as fs from 'fs';
import * as path from 'path';

interface Docs {
  summary?: string;
  default?: string;
}
interface Member {
  name: string;
  docs?: Docs;
  optional?: boolean;
  static?: boolean;
  locationInModule?: unknown;
}
interface JsiiType {
  fqn: string;
  kind: 'class' | 'interface' | 'enum';
  docs?: Docs;
  datatype?: boolean;
  properties?: Member[];
  methods?: Member[];
  members?: Member[];
  initializer?: { parameters?: Member[] };
}

const ROOT = path.join(__dirname, '..', '..');

test.each(['.jsii', 'dist-cdktn/.jsii'])('every public type and member in %s is documented', (file) => {
  const assembly = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as { name: string; types: Record<string, JsiiType> };
  const missing: string[] = [];
  for (const type of Object.values(assembly.types)) {
    if (!type.docs?.summary) missing.push(`${type.fqn}: no summary`);
    for (const property of type.properties ?? []) {
      if (!property.docs?.summary) missing.push(`${type.fqn}.${property.name}: no summary`);
      if (type.datatype && property.optional && property.docs?.default === undefined)
        missing.push(`${type.fqn}.${property.name}: optional without @default`);
    }
    for (const method of type.methods ?? []) {
      if (!method.docs?.summary) missing.push(`${type.fqn}.${method.name}(): no summary`);
    }
    for (const member of type.members ?? []) {
      if (!member.docs?.summary) missing.push(`${type.fqn}.${member.name}: no summary`);
    }
  }
  expect(missing).toEqual([]);
});
