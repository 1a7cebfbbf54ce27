import { App, Fn, TerraformOutput, TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { AnnotationMetadataEntryType } from 'cdktf/lib/annotations';
import { AuthorizationPolicyIamMember, GoogleIamGrants, MigrationJobIamBinding, MigrationJobIamMember } from '../../../lib';
import { grantsResource, parsedGrant } from '../../support/grants-json';
import { resolveIn } from '../../support/resolve';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const MJ = 'projects/p-123456/locations/us-central1/migrationJobs/mj';
const ROLE = 'roles/networksecurity.authorizationPolicyViewer';
const AP_RESOURCE = { service: 'networksecurity', apiVersion: 'v1', name: AP };
const MJ_RESOURCE = { service: 'datamigration', apiVersion: 'v1', name: MJ };
const ALICE_KEY = `networksecurity:${AP}|${ROLE}|user:alice@example.com`;

function newStack(): TerraformStack {
  return new TerraformStack(Testing.app(), 'stack');
}

describe("the stack's grants resource", () => {
  test('every grant is one instance of terraform_data.google_iam_grants, keyed by what it grants, with the grant as JSON', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    new MigrationJobIamBinding(stack, 'Viewers', {
      name: MJ,
      role: 'roles/datamigration.viewer',
      members: ['user:a@example.com', 'group:g@example.com'],
    });
    const { instances, raw, json } = grantsResource(stack);

    expect(Object.keys(json.resource)).toEqual(['terraform_data']);
    expect(Object.keys(json.resource.terraform_data)).toEqual(['google_iam_grants', 'google_iam_grants_applied', 'google_iam_repair']);
    expect(Object.keys(instances).sort()).toEqual([`datamigration:${MJ}|roles/datamigration.viewer`, ALICE_KEY]);
    expect(parsedGrant(instances[ALICE_KEY])).toEqual({
      mode: 'member',
      resource: AP_RESOURCE,
      role: ROLE,
      member: 'user:alice@example.com',
    });
    expect(instances[ALICE_KEY].label).toBe('AuthorizationPolicyIamMember stack/Alice');
    expect(parsedGrant(instances[`datamigration:${MJ}|roles/datamigration.viewer`])).toEqual({
      mode: 'binding',
      resource: MJ_RESOURCE,
      role: 'roles/datamigration.viewer',
      members: ['user:a@example.com', 'group:g@example.com'],
    });
    // The grant triggers replacement (create_before_destroy: re-applied before the old object goes); the label is updated in place.
    expect(raw).toMatchObject({
      triggers_replace: '${each.value.grant}',
      input: '${each.value.label}',
      lifecycle: { create_before_destroy: true, replace_triggered_by: ['terraform_data.google_iam_repair'] },
    });
  });

  test('the runner runs at create (from the grant applied) and at destroy (from the grant), with no shell: node and its path, the grant in the environment', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    const { provisioners, applied } = grantsResource(stack);
    const [destroy, ...moreOnGrant] = provisioners;
    const [create, ...moreOnApplied] = applied.provisioners;
    expect([moreOnGrant, moreOnApplied]).toEqual([[], []]);
    expect(create).toMatchObject({
      command: 'apply',
      interpreter: ['node', expect.stringMatching(/^assets\/CdktfGoogleIamRunner\/[0-9A-F]+\/runner\.js$/)],
    });
    expect(create.when).toBeUndefined();
    expect(create.environment).toEqual({
      CDKTF_GOOGLE_IAM_GRANT: '${terraform_data.google_iam_grants[each.key].triggers_replace}',
      CDKTF_GOOGLE_IAM_LABEL: '${terraform_data.google_iam_grants[each.key].input}',
      CDKTF_GOOGLE_IAM_RUN: '${plantimestamp()}',
    });
    // A destroy-time provisioner reads only self.
    expect(destroy).toEqual({
      command: 'remove',
      when: 'destroy',
      interpreter: create.interpreter,
      environment: {
        CDKTF_GOOGLE_IAM_GRANT: '${self.triggers_replace}',
        CDKTF_GOOGLE_IAM_LABEL: '${self.input}',
        CDKTF_GOOGLE_IAM_RUN: '${plantimestamp()}',
      },
    });
  });

  test('each object of a grant is applied by a new instance of the grant applied, which is not create_before_destroy (a failed apply taints only it, and deposes nothing)', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    const { applied } = grantsResource(stack);
    expect(applied.raw).toMatchObject({
      for_each: '${local.google_iam_grants}',
      triggers_replace: '${terraform_data.google_iam_grants[each.key].id}',
      lifecycle: { create_before_destroy: false },
    });
    expect(applied.raw.lifecycle.replace_triggered_by).toBeUndefined();
  });

  test('two constructs that grant the same thing share one instance; both are named in its label', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'A', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    new AuthorizationPolicyIamMember(stack, 'B', { name: AP, role: ROLE, member: 'user:Alice@Example.com' });
    const { instances } = grantsResource(stack);
    expect(Object.keys(instances)).toEqual([ALICE_KEY]);
    expect(instances[ALICE_KEY].label).toBe('AuthorizationPolicyIamMember stack/A, AuthorizationPolicyIamMember stack/B');
  });

  test('a conditional grant keys on the condition; one runner asset serves the whole stack', () => {
    const stack = newStack();
    const condition = { title: 't', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', description: 'd' };
    new MigrationJobIamBinding(stack, 'B1', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'], condition });
    new MigrationJobIamBinding(stack, 'B2', { name: MJ, role: 'roles/datamigration.viewer', members: ['domain:example.com'] });
    const keys = Object.keys(grantsResource(stack).instances).sort();
    expect(keys).toEqual([
      `datamigration:${MJ}|roles/datamigration.viewer`,
      expect.stringMatching(/\|roles\/datamigration\.viewer\|if:t:[0-9a-f]{12}$/),
    ]);
    expect(parsedGrant(grantsResource(stack).instances[keys[1]])).toMatchObject({ condition });
    expect(stack.node.findAll().filter((c) => c.node.id === 'CdktfGoogleIamRunner')).toHaveLength(1);
  });

  test('literal ${ and %{ in a condition are escaped, since Terraform reads JSON strings as templates', () => {
    const stack = newStack();
    const condition = { title: 'costs ${x} and %{y}', expression: 'resource.name.endsWith("${id}")' };
    new AuthorizationPolicyIamMember(stack, 'M', { name: AP, role: ROLE, member: 'user:alice@example.com', condition });
    const [instance] = Object.values(grantsResource(stack).instances);
    expect(instance.grant).toContain('"title":"costs $${x} and %%{y}"');
    expect(instance.grant).toContain('endsWith(\\"$${id}\\")');
    expect((parsedGrant(instance) as { condition: unknown }).condition).toEqual(condition);
  });

  test("a grant holding tokens is a jsonencode() expression with every literal escaped, keyed by the expressions' text", () => {
    const stack = newStack();
    const member = new TerraformVariable(stack, 'member', { type: 'string' }).stringValue;
    const condition = { title: 'say "${hi}" %{ if } \\ back', expression: 'true' };
    new AuthorizationPolicyIamMember(stack, 'T', { name: AP, role: ROLE, member: `user:${member}`, condition });
    const members = new TerraformVariable(stack, 'members', { type: 'list(string)' }).listValue;
    new MigrationJobIamBinding(stack, 'L', { name: MJ, role: 'roles/datamigration.viewer', members });
    const { instances } = grantsResource(stack);

    const [bindingKey, memberKey] = Object.keys(instances).sort();
    expect(memberKey).toMatch(/^networksecurity:.*\|user:_var\.member_\|if:say_hi_if_back:[0-9a-f]{12}#[0-9a-f]{12}$/);
    expect(instances[memberKey].grant).toBe(
      '${jsonencode({"mode" = "member", "resource" = {"service" = "networksecurity", "apiVersion" = "v1", ' +
        `"name" = "${AP}"}, "role" = "${ROLE}", "member" = "user:\${var.member}", ` +
        '"condition" = {"expression" = "true", "title" = "say \\"$${hi}\\" %%{ if } \\\\ back"}})}',
    );
    expect(bindingKey).toBe(`datamigration:${MJ}|roles/datamigration.viewer`);
    expect(instances[bindingKey].grant).toContain('"members" = var.members');
  });

  test("attributes: Terraform-style id, project, and fqn (the instance's address, for dependsOn, -target and -replace)", () => {
    const stack = newStack();
    const member = new AuthorizationPolicyIamMember(stack, 'M', {
      name: AP,
      role: ROLE,
      member: 'user:alice@example.com',
      condition: { title: 't', expression: 'true' },
    });
    const binding = new MigrationJobIamBinding(stack, 'B', {
      name: MJ,
      role: 'roles/datamigration.viewer',
      members: ['user:a@example.com'],
    });
    expect(member.id).toBe(`${AP}/${ROLE}/user:alice@example.com/t//true`);
    expect(member.project).toBe('p-123456');
    expect(member.member).toBe('user:alice@example.com');
    expect(binding.id).toBe(`${MJ}/roles/datamigration.viewer`);
    expect(binding.project).toBe('p-123456');
    expect(resolveIn(stack, binding.fqn)).toBe(
      `terraform_data.google_iam_grants_applied["datamigration:${MJ}|roles/datamigration.viewer"]`,
    );

    new TerraformOutput(stack, 'after', { value: 'granted', dependsOn: [binding] });
    expect(grantsResource(stack).json.output.after.depends_on).toEqual([
      `terraform_data.google_iam_grants_applied["datamigration:${MJ}|roles/datamigration.viewer"]`,
    ]);
  });

  test('token inputs are passed through unvalidated and the project is derived in Terraform', () => {
    const stack = newStack();
    const name = new TerraformVariable(stack, 'policy', { type: 'string' }).stringValue;
    const member = new TerraformVariable(stack, 'member', { type: 'string' }).stringValue;
    const grant = new AuthorizationPolicyIamMember(stack, 'M', { name, role: ROLE, member });
    const [instance] = Object.values(grantsResource(stack).instances);
    expect(instance.grant).toContain('"name" = "${var.policy}"');
    expect(instance.grant).toContain('"member" = "${var.member}"');
    expect(resolveIn(stack, grant.project)).toBe('${element(split("/", var.policy), 1)}');
  });

  test("grants need no provider plugin; GoogleIamGrants.of() alone keeps an empty grants resource (for deleting a stack's last grant)", () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'M', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    expect(grantsResource(stack).json.provider).toBeUndefined();

    const empty = newStack();
    GoogleIamGrants.of(empty);
    expect(grantsResource(empty).instances).toEqual({});
    expect(GoogleIamGrants.of(empty).grantCount).toBe(0);
  });

  test('HCL output writes the map as one local expression whose strings travel base64-encoded', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'Alice', {
      name: AP,
      role: ROLE,
      member: 'user:alice@example.com',
      condition: { title: 'quote " backslash \\', expression: 'true' },
    });
    const hcl = Testing.synthHcl(stack);
    expect(hcl).toMatch(
      /google_iam_grants = "\$\{\{ "networksecurity:[^"]+" = \{ grant = base64decode\("[A-Za-z0-9+/=]+"\), label = base64decode\("[A-Za-z0-9+/=]+"\) \} \}\}"/,
    );
    expect(hcl).toContain('for_each = local.google_iam_grants');
    expect(hcl.split('provisioner "local-exec" {')).toHaveLength(3);
  });
});

describe('synth-time validation names the construct path, the field and the value', () => {
  const cases: [string, () => void, RegExp][] = [
    [
      'bad member prefix',
      () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: ROLE, member: 'User:alice@example.com' }),
      /stack\/M: member: .*"User:alice@example.com"/,
    ],
    [
      'deleted principal',
      () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: ROLE, member: 'deleted:user:a@example.com?uid=1' }),
      /stack\/M: member: /,
    ],
    [
      'shell in member',
      () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: ROLE, member: 'user:$(touch x)@example.com' }),
      /stack\/M: member: /,
    ],
    [
      'bad role',
      () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: AP, role: 'viewer; rm -rf /', member: 'user:a@example.com' }),
      /stack\/M: role: .*"viewer; rm -rf \/"/,
    ],
    [
      'wrong collection',
      () => new AuthorizationPolicyIamMember(newStack(), 'M', { name: MJ, role: ROLE, member: 'user:a@example.com' }),
      /stack\/M: name: .*migrationJobs/,
    ],
    [
      'bad members entry',
      () => new MigrationJobIamBinding(newStack(), 'B', { name: MJ, role: ROLE, members: ['user:a@example.com', 'alice'] }),
      /stack\/B: members\[1\]: .*"alice"/,
    ],
    [
      'empty members',
      () => new MigrationJobIamBinding(newStack(), 'B', { name: MJ, role: ROLE, members: [] }),
      /stack\/B: members: must list at least one principal/,
    ],
    [
      'CEL syntax error',
      () =>
        new AuthorizationPolicyIamMember(newStack(), 'M', {
          name: AP,
          role: ROLE,
          member: 'user:a@example.com',
          condition: { title: 't', expression: 'request.time < (' },
        }),
      /stack\/M: condition\.expression: .*line 1, column/,
    ],
    [
      'condition with basic role',
      () =>
        new AuthorizationPolicyIamMember(newStack(), 'M', {
          name: AP,
          role: 'roles/owner',
          member: 'user:a@example.com',
          condition: { title: 't', expression: 'true' },
        }),
      /stack\/M: condition/,
    ],
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

  test('the same role with different conditions is two bindings and allowed', () => {
    expect(
      synthErrors((s) => {
        new MigrationJobIamBinding(s, 'A', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
        new MigrationJobIamBinding(s, 'B', {
          name: MJ,
          role: 'roles/datamigration.viewer',
          members: ['user:a@example.com'],
          condition: { title: 't', expression: 'true' },
        });
      }),
    ).toBe('');
  });

  test('more than 1,500 principals on one policy across the app is refused with the count', () => {
    const message = synthErrors((s) => {
      for (let i = 0; i < 16; i++) {
        new MigrationJobIamBinding(s, `B${i}`, {
          name: MJ,
          role: `roles/datamigration.r${i}`,
          members: Array.from({ length: 100 }, (_, j) => `user:u${i}-${j}@example.com`),
        });
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

  test('a member grant on a role that a binding owns is refused: each apply of one would undo the other', () => {
    const message = synthErrors((s) => {
      new MigrationJobIamBinding(s, 'Owner', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
      new MigrationJobIamMember(s, 'Member', { name: MJ, role: 'roles/datamigration.viewer', member: 'user:b@example.com' });
      new MigrationJobIamMember(s, 'OtherRole', { name: MJ, role: 'roles/datamigration.admin', member: 'user:b@example.com' });
    });
    expect(message).toMatch(
      /stack\/Member: role: stack\/Owner \(MigrationJobIamBinding\) owns this role's whole member list .*add the member to the binding instead/,
    );
    expect(message).not.toMatch(/OtherRole/);
  });

  test('the same member grant in two stacks is a warning: deleting it from either revokes it for both', () => {
    const app = Testing.app();
    const one = new TerraformStack(app, 'one');
    const two = new TerraformStack(app, 'two');
    new AuthorizationPolicyIamMember(one, 'A', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    new AuthorizationPolicyIamMember(two, 'A', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    Testing.synth(two, true);
    const warnings = two.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === AnnotationMetadataEntryType.WARN).map((m) => `${c.node.path}: ${m.data}`));
    expect(warnings).toEqual([expect.stringMatching(/^two\/A: one\/A grants the same member, role and condition in another stack/)]);
  });

  test('a literal grant and one holding a Terraform value that may equal it: a synth warning, a plan-time check, and each names the other for the runner', () => {
    const stack = newStack();
    const member = new TerraformVariable(stack, 'member', { type: 'string' });
    new AuthorizationPolicyIamMember(stack, 'Literal', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    new AuthorizationPolicyIamMember(stack, 'Variable', { name: AP, role: ROLE, member: member.stringValue });
    new AuthorizationPolicyIamMember(stack, 'OtherRole', {
      name: AP,
      role: 'roles/networksecurity.authorizationPolicyAdmin',
      member: member.stringValue,
    });
    const json = JSON.parse(Testing.synth(stack, true));
    const warnings = stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === AnnotationMetadataEntryType.WARN).map((m) => String(m.data)));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^AuthorizationPolicyIamMember stack\/Literal and AuthorizationPolicyIamMember stack\/Variable may grant the same thing/,
      ),
      expect.stringMatching(
        /^AuthorizationPolicyIamMember stack\/Variable and AuthorizationPolicyIamMember stack\/Literal may grant the same thing/,
      ),
    ]);
    const checks = Object.values(json.check ?? {}).filter((c) => JSON.stringify(c).includes('grant the same thing'));
    expect(checks).toEqual([
      {
        assert: [
          {
            condition: expect.stringContaining('var.member'),
            error_message: expect.stringMatching(/stack\/Literal and .*stack\/Variable grant the same thing/),
          },
        ],
      },
    ]);
    const labels = Object.values(json.locals.google_iam_grants as Record<string, { label: string }>).map((e) => e.label);
    expect(labels.filter((l) => l.includes('twins:'))).toHaveLength(2);
  });

  test('grants whose names are tokens are left out of the app-wide checks', () => {
    expect(
      synthErrors((s) => {
        const name = Fn.join('/', ['projects/p-123456/locations/us-central1/migrationJobs', 'mj']);
        new MigrationJobIamBinding(s, 'A', { name, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
        new MigrationJobIamBinding(s, 'B', { name, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
      }),
    ).toBe('');
  });
});
