import { App, Fn, TerraformIterator, TerraformOutput, TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { AnnotationMetadataEntryType } from 'cdktf/lib/annotations';
import type { Construct } from 'constructs';
import { AuthorizationPolicyIamMember, MigrationJobIamBinding } from '../../lib';
import { IamGrant } from '../../lib/grant/iam-grant';
import { MIGRATION_JOB_TYPE } from '../../lib/grant/resource-type';
import { resolveIn } from '../support/resolve';
import { localExecs } from '../support/runner-provisioners';

/** A third grant type is a descriptor and a few lines; this one exists only to test member/binding fights. */
class MigrationJobIamMember extends IamGrant {
  constructor(scope: Construct, id: string, props: { name: string; role: string; member: string }) {
    super(scope, id, { typeName: 'MigrationJobIamMember', type: MIGRATION_JOB_TYPE, mode: 'member', membersField: 'member', members: [props.member], ...props });
  }
}

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const MJ = 'projects/p-123456/locations/us-central1/migrationJobs/mj';
const ROLE = 'roles/networksecurity.authorizationPolicyViewer';

function newStack(): TerraformStack {
  return new TerraformStack(Testing.app(), 'stack');
}

function terraformData(stack: TerraformStack): Record<string, any>[] {
  const json = JSON.parse(Testing.synth(stack));
  return Object.values(json.resource?.terraform_data ?? {});
}

describe('synthesized terraform_data', () => {
  test('a member grant stores its spec as JSON in triggers_replace, with create and destroy provisioners and no shell', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    const spec = {
      type: 'networksecurity.authorizationPolicies', mode: 'member', resource: AP, role: ROLE, members: ['user:alice@example.com'],
      label: 'AuthorizationPolicyIamMember stack/Alice',
    };

    expect(Testing.synth(stack)).toHaveResourceWithProperties({ tfResourceType: 'terraform_data' }, { triggers_replace: JSON.stringify(spec) });
    const [resource] = terraformData(stack);
    expect(resource.input).toBeUndefined();
    const [create, destroy, ...more] = localExecs(resource);
    expect(more).toEqual([]);
    expect(create).toMatchObject({ command: 'apply', interpreter: ['node', expect.stringMatching(/^assets\/CdktfGoogleIamRunner\/.+\/runner\.js$/)] });
    expect(create.when).toBeUndefined();
    expect(destroy).toMatchObject({ command: 'remove', when: 'destroy', interpreter: create.interpreter });
    expect(create.environment).toEqual({ CDKTF_GOOGLE_IAM_GRANT: '${self.triggers_replace}' });
    expect(destroy.environment).toEqual(create.environment);
  });

  test('JSON output writes both provisioners under one local-exec label, interpreter and environment as single expressions', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    const [resource] = terraformData(stack);
    const [create, destroy] = resource.provisioner['local-exec'];
    expect(create.interpreter).toMatch(/^\$\{\["node","assets\/CdktfGoogleIamRunner\/[0-9A-F]+\/runner\.js"\]\}$/);
    expect(create.environment).toBe('${{CDKTF_GOOGLE_IAM_GRANT = self.triggers_replace}}');
    expect(destroy).toEqual({ ...create, command: 'remove', when: 'destroy' });
  });

  test('HCL output writes the provisioners as plain blocks', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    const hcl = Testing.synthHcl(stack);
    const blocks = hcl.split('provisioner "local-exec" {').slice(1);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(/command\s*=\s*"apply"/);
    expect(blocks[0]).toMatch(/interpreter\s*=\s*\[\s*"node",\s*"assets\/CdktfGoogleIamRunner\/[0-9A-F]+\/runner\.js",?\s*\]/);
    expect(blocks[0]).toMatch(/CDKTF_GOOGLE_IAM_GRANT\s*=\s*"\$\{self\.triggers_replace\}"/);
    expect(blocks[0]).not.toMatch(/when/);
    expect(blocks[1]).toMatch(/command\s*=\s*"remove"/);
    expect(blocks[1]).toMatch(/when\s*=\s*"destroy"/);
  });

  test('provisioners a user adds to a grant run after the grant\'s own, in JSON and HCL', () => {
    const stack = newStack();
    const grant = new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    grant.provisioners = [{ type: 'local-exec', command: 'echo granted' }];
    const [resource] = terraformData(stack);
    expect(localExecs(resource).map((p) => p.command)).toEqual(['apply', 'remove', 'echo granted']);
    const hcl = Testing.synthHcl(stack);
    expect([...hcl.matchAll(/command\s*=\s*"([^"]+)"/g)].map((m) => m[1])).toEqual(['apply', 'remove', 'echo granted']);
  });

  test('a conditional binding keeps the condition in its spec; one runner asset serves the whole stack', () => {
    const stack = newStack();
    const condition = { title: 't', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', description: 'd' };
    new MigrationJobIamBinding(stack, 'B1', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com', 'group:g@example.com'], condition });
    new MigrationJobIamBinding(stack, 'B2', { name: MJ, role: 'roles/datamigration.admin', members: ['domain:example.com'] });

    const [first] = terraformData(stack);
    expect(JSON.parse(first.triggers_replace)).toEqual({
      type: 'datamigration.migrationJobs', mode: 'binding', resource: MJ, role: 'roles/datamigration.viewer',
      members: ['user:a@example.com', 'group:g@example.com'], condition, label: 'MigrationJobIamBinding stack/B1',
    });
    expect(stack.node.findAll().filter((c) => c.node.id === 'CdktfGoogleIamRunner')).toHaveLength(1);
  });

  test('literal ${ and %{ in a condition are escaped, since Terraform reads JSON strings as templates', () => {
    const stack = newStack();
    const condition = { title: 'costs ${x} and %{y}', expression: 'resource.name.endsWith("${id}")' };
    new AuthorizationPolicyIamMember(stack, 'M', { name: AP, role: ROLE, member: 'user:alice@example.com', condition });
    const [resource] = terraformData(stack);
    expect(resource.triggers_replace).toContain('"title":"costs $${x} and %%{y}"');
    expect(resource.triggers_replace).toContain('endsWith(\\"$${id}\\")');
    // Terraform undoes the escapes when it evaluates the template:
    expect(JSON.parse(resource.triggers_replace.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{')).condition).toEqual(condition);
  });

  test('a spec with tokens stays an object, so Terraform fills in and compares the apply-time values', () => {
    const stack = newStack();
    const member = new TerraformVariable(stack, 'member', { type: 'string' }).stringValue;
    new AuthorizationPolicyIamMember(stack, 'T', { name: AP, role: ROLE, member, condition: { title: '${literal}', expression: 'true' } });
    const [resource] = terraformData(stack);
    expect(resource.triggers_replace).toMatchObject({ members: ['${var.member}'], condition: { title: '$${literal}' }, label: 'AuthorizationPolicyIamMember stack/T' });
    expect(localExecs(resource)[0].environment).toEqual({ CDKTF_GOOGLE_IAM_GRANT: '${jsonencode(self.triggers_replace)}' });

    const listStack = newStack();
    const members = new TerraformVariable(listStack, 'members', { type: 'list(string)' }).listValue;
    new MigrationJobIamBinding(listStack, 'L', { name: MJ, role: 'roles/datamigration.viewer', members });
    const [binding] = terraformData(listStack);
    expect(binding.triggers_replace.members).toBe('${var.members}');
  });

  test('attributes: Terraform-style id and project', () => {
    const stack = newStack();
    const member = new AuthorizationPolicyIamMember(stack, 'M', { name: AP, role: ROLE, member: 'user:alice@example.com', condition: { title: 't', expression: 'true' } });
    const binding = new MigrationJobIamBinding(stack, 'B', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
    expect(member.id).toBe(`${AP}/${ROLE}/user:alice@example.com/t//true`);
    expect(member.project).toBe('p-123456');
    expect(member.member).toBe('user:alice@example.com');
    expect(binding.id).toBe(`${MJ}/roles/datamigration.viewer`);
    expect(binding.project).toBe('p-123456');
  });

  test('token inputs are passed through unvalidated and the project is derived in Terraform', () => {
    const stack = newStack();
    const name = new TerraformVariable(stack, 'policy', { type: 'string' }).stringValue;
    const member = new TerraformVariable(stack, 'member', { type: 'string' }).stringValue;
    const grant = new AuthorizationPolicyIamMember(stack, 'M', { name, role: ROLE, member });
    const [resource] = terraformData(stack);
    expect(resource.triggers_replace).toMatchObject({ resource: '${var.policy}', members: ['${var.member}'] });
    expect(resolveIn(stack, grant.project)).toBe('${element(split("/", var.policy), 1)}');
  });

  test('a grant in a stack without any provider needs no provider plugin', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'M', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    expect(JSON.parse(Testing.synth(stack)).provider).toBeUndefined();
  });
});

describe('synth-time validation names the construct path, the field and the value', () => {
  const cases: [string, () => void, RegExp][] = [
    ['bad member prefix', () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: ROLE, member: 'User:alice@example.com' }), /stack\/M: member: .*"User:alice@example.com"/],
    ['deleted principal', () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: ROLE, member: 'deleted:user:a@example.com?uid=1' }), /stack\/M: member: /],
    ['shell in member', () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: ROLE, member: 'user:$(touch x)@example.com' }), /stack\/M: member: /],
    ['bad role', () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: 'viewer; rm -rf /', member: 'user:a@example.com' }), /stack\/M: role: .*"viewer; rm -rf \/"/],
    ['wrong collection', () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: MJ, role: ROLE, member: 'user:a@example.com' }), /stack\/M: name: .*migrationJobs/],
    ['bad members entry', () => new MigrationJobIamBinding(newStack(), 'B', { name: MJ, role: ROLE, members: ['user:a@example.com', 'alice'] }), /stack\/B: members\[1\]: .*"alice"/],
    ['empty members', () => new MigrationJobIamBinding(newStack(), 'B', { name: MJ, role: ROLE, members: [] }), /stack\/B: members: must list at least one principal/],
    ['CEL syntax error', () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: ROLE, member: 'user:a@example.com', condition: { title: 't', expression: 'request.time < (' } }), /stack\/M: condition\.expression: .*line 1, column/],
    ['condition with basic role', () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: 'roles/owner', member: 'user:a@example.com', condition: { title: 't', expression: 'true' } }), /stack\/M: condition/],
  ];
  test.each(cases)('%s', (_label, build, message) => {
    expect(build).toThrow(message);
  });
});

describe('app-wide checks', () => {
  function synthErrors(build: (stack: TerraformStack) => void): string {
    const app = new App({ outdir: Testing.app().outdir });
    const stack = new TerraformStack(app, 'stack');
    build(stack);
    try {
      Testing.synth(stack, true);
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  }

  test('two bindings of the same role on one job are refused, naming both constructs', () => {
    const message = synthErrors((s) => {
      new MigrationJobIamBinding(s, 'First', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
      new MigrationJobIamBinding(s, 'Second', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:b@example.com'] });
    });
    expect(message).toMatch(/stack\/Second: role: .*stack\/First already owns it/);
  });

  test('a grant is one terraform_data that other resources can depend on; count and forEach are refused', () => {
    const stack = newStack();
    const grant = new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    new TerraformOutput(stack, 'after', { value: 'granted', dependsOn: [grant] });
    const json = JSON.parse(Testing.synth(stack));
    expect(Object.keys(json.resource.terraform_data)).toEqual(['Alice']);
    expect(json.output.after.depends_on).toEqual(['${terraform_data.Alice}']);

    const message = synthErrors((s) => {
      const repeated = new AuthorizationPolicyIamMember(s, 'Copies', { name: AP, role: ROLE, member: 'user:alice@example.com' });
      repeated.count = 2;
      const iterated = new MigrationJobIamBinding(s, 'Each', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
      iterated.forEach = TerraformIterator.fromList(['a', 'b']);
    });
    expect(message).toContain('stack/Copies: count: a grant cannot be repeated; create one grant per principal instead (got 2)');
    expect(message).toContain('stack/Each: forEach: a grant cannot be repeated');
  });

  test('the same role with different conditions is two bindings and allowed', () => {
    expect(synthErrors((s) => {
      new MigrationJobIamBinding(s, 'A', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
      new MigrationJobIamBinding(s, 'B', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } });
    })).toBe('');
  });

  test('more than 1,500 principals on one policy across the app is refused with the count', () => {
    const message = synthErrors((s) => {
      for (let i = 0; i < 16; i++) {
        new MigrationJobIamBinding(s, `B${i}`, { name: MJ, role: `roles/datamigration.r${i}`, members: Array.from({ length: 100 }, (_, j) => `user:u${i}-${j}@example.com`) });
      }
    });
    expect(message).toMatch(/stack\/B15: members: .*1,600 principals .*at most 1,500/);
  });

  test('more than 250 groups on one policy is refused', () => {
    const message = synthErrors((s) => {
      for (let i = 0; i < 251; i++) {
        new AuthorizationPolicyIamMember(s, `G${i}`, { name: AP, role: ROLE, member: `group:g${i}@example.com` });
      }
    });
    expect(message).toMatch(/stack\/G250: member: .*251 groups/);
  });

  test('a member grant on a role that a binding owns is a warning on the member grant', () => {
    const stack = newStack();
    new MigrationJobIamBinding(stack, 'Owner', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
    new MigrationJobIamMember(stack, 'Member', { name: MJ, role: 'roles/datamigration.viewer', member: 'user:b@example.com' });
    new MigrationJobIamMember(stack, 'OtherRole', { name: MJ, role: 'roles/datamigration.admin', member: 'user:b@example.com' });
    Testing.synth(stack, true);
    const warnings = stack.node.findAll().flatMap((c) =>
      c.node.metadata.filter((m) => m.type === AnnotationMetadataEntryType.WARN).map((m) => `${c.node.path}: ${m.data}`));
    expect(warnings).toEqual([expect.stringMatching(/^stack\/Member: .*roles\/datamigration.viewer .*stack\/Owner owns/)]);
  });

  test('grants whose names are tokens are left out of the app-wide checks', () => {
    expect(synthErrors((s) => {
      const name = Fn.join('/', ['projects/p-123456/locations/us-central1/migrationJobs', 'mj']);
      new MigrationJobIamBinding(s, 'A', { name, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
      new MigrationJobIamBinding(s, 'B', { name, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
    })).toBe('');
  });
});
