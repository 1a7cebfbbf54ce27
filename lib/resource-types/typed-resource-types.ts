/**
 * The typed resource types: one row each. A row is all it takes to add one:
 * `npm run generate:resource-types` (scripts/generate-resource-types.js)
 * writes from it the row's member, binding and policy constructs and its
 * Output-form lookup (`lib/{module}/{stem in kebab case}-iam.generated.ts`),
 * its Direct-form method of GoogleLookups and its export from lib/index.ts;
 * published-shape.ts checks the row against Google's published API
 * (GoogleIamApis) when the library loads. Like terraform-provider-google's
 * per-resource IAM descriptors, everything else (the grant engine, the
 * provider, the emulator) is shared and needs nothing per type; the provider
 * serves one resource and data source type per row, whose L1 classes
 * scripts/generate-provider-bindings.js writes.
 *
 * Plain data, no imports: the generator loads this file as it is. It sits
 * on the shared floor (lib/resource-types), as both wings read it: the
 * constructs and lookups at synth, the provider's types inside Terraform.
 */

/** One typed resource type: `projects/{project}/locations/{location}/{collection}/{id}` of one Google API. */
export interface TypedResourceTypeRow {
  /** The class name stem: `AuthorizationPolicy` gives `AuthorizationPolicyIamMember`, `getAuthorizationPolicyIamPolicy`, ... */
  readonly stem: string;
  /** The SPEC.md module, and the folder of lib/ the constructs are written to. */
  readonly module: string;
  /** The Google API (host name without .googleapis.com) and version that serve the policy. */
  readonly service: string;
  readonly apiVersion: string;
  /** The collection segment of the resource's name, as Google publishes it. */
  readonly collection: string;
  /** The lookups' property that holds the resource's id, e.g. `authorizationPolicyId`. */
  readonly idField: string;
  /** How a person calls it in messages and short docs: `authorization policy`. */
  readonly label: string;
  /** How the docs introduce it: `network-security authorization policy`. */
  readonly noun: string;
  /** A location for the docs' examples. */
  readonly exampleLocation: string;
  /** A predefined role for the docs' examples; undefined: the docs say "a predefined role". */
  readonly exampleRole?: string;
  /** Whether the google provider has a data source for this policy (it never asks for version 3); the docs then say how this one differs. */
  readonly providerDataSource?: boolean;
  /** The `@cdktf/provider-google` class that creates such a resource: the docs say its `id` is the name to grant on. */
  readonly providerResource?: string;
  /**
   * The stems of rows whose names are easily taken for this one's (Google's two
   * authorization-policy collections): such a name given to this row's types is
   * refused with a message naming the type of that row that takes it.
   */
  readonly lookalikes?: readonly string[];
}

/** Every typed resource type, in the order the generated code lists them. */
export const TYPED_RESOURCE_TYPE_ROWS: readonly TypedResourceTypeRow[] = [
  {
    stem: 'AuthorizationPolicy',
    module: 'networksecurity',
    service: 'networksecurity',
    apiVersion: 'v1',
    collection: 'authorizationPolicies',
    idField: 'authorizationPolicyId',
    label: 'authorization policy',
    noun: 'network-security authorization policy',
    exampleLocation: 'global',
    exampleRole: 'roles/networksecurity.viewer',
    lookalikes: ['NetworkSecurityAuthzPolicy'],
  },
  {
    // The collection provider-google's NetworkSecurityAuthzPolicy (google_network_security_authz_policy) creates:
    // named after it so a user finds the grants beside it.
    stem: 'NetworkSecurityAuthzPolicy',
    module: 'networksecurity',
    service: 'networksecurity',
    apiVersion: 'v1',
    collection: 'authzPolicies',
    idField: 'authzPolicyId',
    label: 'authz policy',
    noun: 'network-security authz policy',
    exampleLocation: 'us-central1',
    providerResource: 'NetworkSecurityAuthzPolicy',
    lookalikes: ['AuthorizationPolicy'],
  },
  {
    stem: 'AddressGroup',
    module: 'networksecurity',
    service: 'networksecurity',
    apiVersion: 'v1',
    collection: 'addressGroups',
    idField: 'addressGroupId',
    label: 'address group',
    noun: 'network-security address group',
    exampleLocation: 'global',
    providerDataSource: true,
  },
  {
    stem: 'MigrationJob',
    module: 'datamigration',
    service: 'datamigration',
    apiVersion: 'v1',
    collection: 'migrationJobs',
    idField: 'migrationJobId',
    label: 'migration job',
    noun: 'Database Migration Service migration job',
    exampleLocation: 'us-central1',
  },
];
