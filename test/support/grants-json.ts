import { Testing, type TerraformStack } from 'cdktf';
import { localExecs, type LocalExec } from './runner-provisioners';

/** One instance of a stack's grants resource, as synthesized. */
export interface GrantInstance {
  /** The grant as JSON text (Terraform template escapes still in), or `${jsonencode(...)}` when it holds tokens. */
  readonly grant: string;
  readonly label: string;
}

/** The stack's `terraform_data.google_iam_grants`, read back from its synthesized JSON. */
export interface GrantsResource {
  readonly instances: Record<string, GrantInstance>;
  /** The grants resource's own provisioners (the revoke). */
  readonly provisioners: LocalExec[];
  readonly raw: Record<string, any>;
  /** `terraform_data.google_iam_grants_applied`, which applies each grant, and its provisioners. */
  readonly applied: { readonly raw: Record<string, any>; readonly provisioners: LocalExec[] };
  readonly json: Record<string, any>;
}

export function grantsResource(stack: TerraformStack): GrantsResource {
  const json = JSON.parse(Testing.synth(stack));
  const raw = json.resource?.terraform_data?.google_iam_grants;
  if (!raw) throw new Error(`no terraform_data.google_iam_grants in ${JSON.stringify(Object.keys(json.resource ?? {}))}`);
  if (raw.for_each !== '${local.google_iam_grants}') throw new Error(`for_each is ${JSON.stringify(raw.for_each)}, not the grants local`);
  const applied = json.resource.terraform_data.google_iam_grants_applied;
  if (applied?.for_each !== raw.for_each) throw new Error('no terraform_data.google_iam_grants_applied over the same grants');
  return {
    instances: json.locals.google_iam_grants,
    provisioners: localExecs(raw),
    raw,
    applied: { raw: applied, provisioners: localExecs(applied) },
    json,
  };
}

/** A known grant's JSON as the runner will receive it (Terraform undoes `$${` and `%%{`). */
export function parsedGrant(instance: GrantInstance): unknown {
  return JSON.parse(instance.grant.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{'));
}
