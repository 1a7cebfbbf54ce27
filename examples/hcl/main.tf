# The googleiam provider in a plain HCL configuration: the IAM resources take the google provider's
# arguments, `condition { ... }` block and import IDs, so HCL written for google_*_iam_member and
# google_*_iam_binding moves here by renaming the type. Lay the provider out first, in this folder, from the
# package's tarball (built by `npm ci && npm run package` in a checkout; not yet on the npm registry):
#   npx --yes --legacy-peer-deps --package=../cdktf-google-iam/dist-packages/cdktf-google-iam-0.1.0.tgz cdktf-google-iam-provider install .
# (once published: npx --yes --legacy-peer-deps --package=cdktf-google-iam cdktf-google-iam-provider install .;
# docs/hcl.md), then terraform init, plan and apply as usual.

terraform {
  required_providers {
    googleiam = {
      source  = "cdktf-google-iam/googleiam"
      version = "0.1.0"
    }
  }
}

# Credentials and project as the google provider reads them (GOOGLE_OAUTH_ACCESS_TOKEN, ADC, ...).
provider "googleiam" {}

locals {
  authorization_policy = "projects/my-project/locations/global/authorizationPolicies/internal-apis"
  migration_job        = "projects/my-project/locations/us-central1/migrationJobs/orders-db"
  address_group        = "projects/my-project/locations/global/addressGroups/office-ranges"
}

# One principal, one role; everyone else's grants are left alone (as google_*_iam_member).
resource "googleiam_authorization_policy_iam_member" "api_readers" {
  name   = local.authorization_policy
  role   = "roles/networksecurity.viewer"
  member = "group:api-readers@example.com"
}

# A conditional grant: the condition is a block, as in the google provider.
resource "googleiam_authorization_policy_iam_member" "oncall_admin" {
  name   = local.authorization_policy
  role   = "roles/networksecurity.admin"
  member = "user:oncall@example.com"

  condition {
    title       = "until-new-year"
    description = "Temporary admin for the December freeze"
    expression  = "request.time < timestamp(\"2027-01-01T00:00:00Z\")"
  }
}

# Every member of one role (as google_*_iam_binding).
resource "googleiam_migration_job_iam_binding" "dms_editors" {
  name    = local.migration_job
  role    = "roles/datamigration.editor"
  members = ["user:alice@example.com", "serviceAccount:reporting@my-project.iam.gserviceaccount.com"]
}

# Every binding of the policy: bindings not listed here are removed.
resource "googleiam_address_group_iam_policy" "office_ranges" {
  name = local.address_group
  bindings = [
    {
      role    = "roles/compute.networkUser"
      members = ["group:network-admins@example.com"]
    },
  ]
}

# Many grants as one resource, each grant block as one _iam_member would grant it (everyone else's grants are
# left alone, and removing a block revokes only that grant): hundreds of grants cost Terraform one resource's work.
resource "googleiam_authorization_policy_iam_members" "support_rota" {
  name = local.authorization_policy

  grant {
    role   = "roles/networksecurity.viewer"
    member = "user:first-line@example.com"
  }

  grant {
    role   = "roles/networksecurity.editor"
    member = "user:second-line@example.com"

    condition {
      title      = "rota-2026"
      expression = "request.time < timestamp(\"2027-01-01T00:00:00Z\")"
    }
  }
}

# Every role of one principal: it holds exactly these on the migration job, and a role it holds there that no
# grant block lists (one given in the console, say) is removed. Other principals are left alone.
resource "googleiam_migration_job_iam_member_roles" "migration_bot" {
  name   = local.migration_job
  member = "serviceAccount:migration-bot@my-project.iam.gserviceaccount.com"

  grant {
    role = "roles/datamigration.admin"
  }
}

# A grant that exists already, taken over without a write (the google provider's import ID format:
# "<resource> <role> <member>", then " <condition title>" for a conditional one).
import {
  to = googleiam_migration_job_iam_member.dba_on_call
  id = "projects/my-project/locations/us-central1/migrationJobs/orders-db projects/my-project/roles/dbaOnCall user:dba@example.com"
}

resource "googleiam_migration_job_iam_member" "dba_on_call" {
  name   = local.migration_job
  role   = "projects/my-project/roles/dbaOnCall"
  member = "user:dba@example.com"
}

# A policy as read (version 3, so conditional bindings come back intact), once the grants above are made.
data "googleiam_authorization_policy_iam_policy" "internal_apis" {
  authorization_policy_id = "internal-apis"
  location                = "global"
  project                 = "my-project"
  depends_on              = [googleiam_authorization_policy_iam_member.api_readers, googleiam_authorization_policy_iam_member.oncall_admin]
}

output "internal_apis_roles" {
  value = [for binding in coalesce(data.googleiam_authorization_policy_iam_policy.internal_apis.bindings, []) : binding.role]
}
