import type { GoogleIamProvider } from '../provider-bindings/google-iam-provider.generated';

/**
 * What every grant construct accepts besides what it grants.
 */
export interface IamGrantOptions {
  /**
   * The provider configuration that makes the grant: one of your own
   * `GoogleIamProvider`s (with an `alias`), e.g. for another project's
   * credentials or an impersonated service account.
   * @default - the stack's default `googleiam` provider
   */
  readonly provider?: GoogleIamProvider;
}
