import type { GrantClaims } from '../iam/grant-claims';
import type { EditRole, PolicyEdit } from '../iam/policy-edit';
import { MessageReader, type JsonObject } from './message-reader';

/**
 * The run declaration: what one provider process of a terraform run tells
 * the others (lib/provider/policies run-declarations.ts keeps them, one line
 * of JSON each, in a folder of the run): the grants the configuration
 * declares on one policy (planned, or about to be written); that the process
 * plans destructions (`terraform destroy`'s destroy walk); that it ended.
 * Written and read only by the provider, but read from a file: parsed here,
 * field by field, never cast into shape.
 */
export type RunDeclaration = RunGrants | RunClaims | RunDestroying | RunEnded;

/** Grants the configuration declares on one policy. */
export interface RunGrants {
  readonly kind: 'grants';
  /** The policy's identity (PolicyIdentity key). */
  readonly policy: string;
  /** The grants: added members, a binding's members, a policy's bindings, a principal's roles. */
  readonly grants: readonly DeclaredEdit[];
}

/**
 * What one grant of the configuration claims on one policy (lib/iam
 * grant-claims.ts), for the plans of the run's other processes to hold
 * theirs against: the static validation (a process of its own) records every
 * grant whose values it knows, so that both of two resources whose claims
 * contradict fail at plan, each under its own address.
 */
export interface RunClaims {
  readonly kind: 'claims';
  /** The policy's identity (PolicyIdentity key). */
  readonly policy: string;
  /** How messages name the grant's resource (`<type> <id>`). */
  readonly label: string;
  /** What tells it from other resources: its type and grant key. */
  readonly key: string;
  readonly claims: GrantClaims;
  /**
   * Recorded by the static validation, which validates each resource block once: two such records of one key
   * are two resources of the same grant key (two of the same values, or two bindings of one role).
   */
  readonly static?: true;
}

/** The process, started at `since` (ms since the epoch), plans the destruction of a resource. */
export interface RunDestroying {
  readonly kind: 'destroying';
  readonly since: number;
}

/** The process ended at `at` (ms since the epoch). */
export interface RunEnded {
  readonly kind: 'ended';
  readonly at: number;
}

/** The edits that declare a grant. */
export type DeclaredEdit = Extract<PolicyEdit, { readonly kind: 'addMember' | 'setBinding' | 'replaceBindings' | 'setMemberRoles' }>;

const DECLARING: readonly DeclaredEdit['kind'][] = ['addMember', 'setBinding', 'replaceBindings', 'setMemberRoles'];

/** The grants among `edits`: what a run declaration carries. */
export function declaredEdits(edits: readonly PolicyEdit[]): DeclaredEdit[] {
  return edits.filter((edit): edit is DeclaredEdit => (DECLARING as readonly string[]).includes(edit.kind));
}

/** One declaration as its line of JSON (without the newline). */
export function serializeRunDeclaration(declaration: RunDeclaration): string {
  switch (declaration.kind) {
    case 'grants':
      return JSON.stringify({ policy: declaration.policy, grants: declaration.grants });
    case 'claims':
      return JSON.stringify({
        claimsOn: declaration.policy,
        label: declaration.label,
        key: declaration.key,
        claims: declaration.claims,
        ...(declaration.static ? { static: true } : {}),
      });
    case 'destroying':
      return JSON.stringify({ destroying: declaration.since });
    case 'ended':
      return JSON.stringify({ ended: declaration.at });
  }
}

const reader = new MessageReader('run declaration');

/** Parses one line a provider process of the run wrote. */
export function parseRunDeclaration(line: string): RunDeclaration {
  const message = reader.object(reader.json(line), 'the declaration');
  if (message.destroying !== undefined) return { kind: 'destroying', since: reader.number(message.destroying, 'destroying') };
  if (message.ended !== undefined) return { kind: 'ended', at: reader.number(message.ended, 'ended') };
  if (message.claimsOn !== undefined) {
    const claims = reader.object(message.claims, 'claims');
    const shown = reader.object(claims.shown, 'claims.shown');
    return {
      kind: 'claims',
      policy: reader.text(message.claimsOn, 'claimsOn'),
      label: reader.text(message.label, 'label'),
      key: reader.text(message.key, 'key'),
      claims: {
        claims: reader.texts(claims.claims, 'claims.claims'),
        shown: Object.fromEntries(
          Object.entries(shown).map(([claim, text]) => [claim, reader.string(text, `claims.shown[${JSON.stringify(claim)}]`)]),
        ),
      },
      ...(message.static === true ? { static: true as const } : {}),
    };
  }
  return {
    kind: 'grants',
    policy: reader.text(message.policy, 'policy'),
    grants: reader.list(message.grants, 'grants').map((value, i) => declaredEdit(reader.object(value, `grants[${i}]`), `grants[${i}]`)),
  };
}

function declaredEdit(edit: JsonObject, field: string): DeclaredEdit {
  const kind = reader.oneOf(edit.kind, `${field}.kind`, DECLARING);
  const condition = optionalCondition(edit.condition, `${field}.condition`);
  switch (kind) {
    case 'addMember':
      return { kind, role: reader.text(edit.role, `${field}.role`), member: reader.text(edit.member, `${field}.member`), condition };
    case 'setBinding':
      return { kind, role: reader.text(edit.role, `${field}.role`), members: reader.texts(edit.members, `${field}.members`), condition };
    case 'replaceBindings':
      return {
        kind,
        bindings: reader.list(edit.bindings, `${field}.bindings`).map((value, i) => {
          const binding = reader.object(value, `${field}.bindings[${i}]`);
          return {
            role: reader.text(binding.role, `${field}.bindings[${i}].role`),
            members: reader.texts(binding.members, `${field}.bindings[${i}].members`),
            condition: optionalCondition(binding.condition, `${field}.bindings[${i}].condition`),
          };
        }),
      };
    case 'setMemberRoles':
      return {
        kind,
        member: reader.text(edit.member, `${field}.member`),
        roles: reader.list(edit.roles, `${field}.roles`).map((value, i): EditRole => {
          const role = reader.object(value, `${field}.roles[${i}]`);
          return {
            role: reader.text(role.role, `${field}.roles[${i}].role`),
            condition: optionalCondition(role.condition, `${field}.roles[${i}].condition`),
          };
        }),
      };
  }
}

function optionalCondition(value: unknown, field: string): { expression: string; title?: string; description?: string } | undefined {
  if (value === undefined) return undefined;
  const condition = reader.object(value, field);
  const title = reader.optionalString(condition.title, `${field}.title`);
  const description = reader.optionalString(condition.description, `${field}.description`);
  return {
    expression: reader.string(condition.expression, `${field}.expression`),
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
  };
}
