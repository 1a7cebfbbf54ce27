// The IAM security checks of the synth wing: the aspect, the suppressions (the reports are written by the aspect).
export { GoogleIamChecks, IamCheckLevel, type GoogleIamChecksProps } from './google-iam-checks';
export { IamSuppressions, type IamSuppression } from './iam-suppressions';
