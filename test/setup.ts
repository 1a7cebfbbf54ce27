// cdktf's Jest matchers (toHaveResourceWithProperties, toBeValidTerraform, ...).
import { setupJest } from 'cdktf/lib/testing/adapters/jest';

setupJest();

// Never let google-auth-library probe a metadata server from a test.
process.env.METADATA_SERVER_DETECTION = 'none';
