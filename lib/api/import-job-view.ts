import { IamValidationError } from '../iam/errors';
import { ImportJobView } from './import-job-enums';

const VIEWS: readonly string[] = Object.values(ImportJobView);

/** Checks a `view` argument against `ImportJobView`; an absent view, or one only Terraform knows, passes. */
export function validateImportJobView(view: string | undefined, isKnown: (value: unknown) => boolean = () => true): void {
  if (view === undefined || !isKnown(view)) return;
  if (!VIEWS.includes(view)) throw new IamValidationError('view', view, `expected one of ${VIEWS.join(', ')}`);
}
