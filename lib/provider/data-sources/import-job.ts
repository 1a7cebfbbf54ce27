import type { ImportJob } from '../../api/import-job-result';
import { validateImportJobView } from '../../api/import-job-view';
import { validateLocatedResource } from '../../iam/located-resource';
import { IMPORT_JOB } from '../../iam/resource-name';
import { reportError } from '../errors';
import type { CtyObject } from '../framework/cty';
import type { DataSourceType } from '../framework/resource';
import type { Attribute } from '../framework/schema';
import type { GoogleIamContext } from '../provider-context';
import { knownValue, partial, stringOf } from '../framework/cty-values';
import { readGoogle } from './google-read';

const computed = (name: string, description: string): Attribute => ({ name, description, type: 'string', computed: true });

/** `googleiam_import_job`: a Migration Center import job, as the Direct form's `getImportJob` returns it. */
export const IMPORT_JOB_DATA_SOURCE: DataSourceType<GoogleIamContext> = {
  typeName: 'googleiam_import_job',
  schema: {
    version: 0,
    description: 'Reads a Migration Center import job (`migrationcenter.googleapis.com/v1alpha1`).',
    attributes: [
      { name: 'import_job_id', description: "The import job's id.", type: 'string', required: true },
      { name: 'location', description: "The import job's location, e.g. `us-central1`.", type: 'string', required: true },
      { name: 'project', description: "The project; by default the provider's.", type: 'string', optional: true, computed: true },
      {
        name: 'view',
        description: "`IMPORT_JOB_VIEW_BASIC` or `IMPORT_JOB_VIEW_FULL`; Google's default when unset.",
        type: 'string',
        optional: true,
      },
      computed('id', "The import job's full name."),
      computed('name', "The import job's full name."),
      computed('display_name', 'Its display name.'),
      computed('asset_source', 'The source of the assets.'),
      computed('create_time', 'When it was created.'),
      computed('update_time', 'When it was last updated.'),
      computed('complete_time', 'When it completed.'),
      computed('state', 'Its state.'),
      { name: 'labels', description: 'Its labels.', type: ['map', 'string'], computed: true },
      computed('execution_report_json', 'The execution report, as JSON text.'),
      computed('validation_report_json', 'The validation report, as JSON text.'),
      computed('object_storage_payload_json', 'The object storage payload, as JSON text.'),
      computed('inline_payload_json', 'The inline payload, as JSON text.'),
    ],
  },
  validate(config, diagnostics) {
    try {
      validateLocatedResource(
        {
          project: partial<string>(config.project),
          location: partial<string>(config.location),
          id: partial<string>(config.import_job_id),
          idField: 'importJobId',
        },
        knownValue,
      );
      validateImportJobView(partial<string>(config.view), knownValue);
    } catch (error) {
      reportError(diagnostics, 'Invalid import job', error);
    }
  },
  async read(context, config, diagnostics) {
    try {
      const view = stringOf(config.view);
      const { project, value } = await readGoogle(
        {
          kind: 'importJob',
          target: {
            collection: IMPORT_JOB.collection,
            location: config.location as string,
            id: config.import_job_id as string,
            ...(stringOf(config.project) ? { project: config.project as string } : {}),
          },
          ...(view ? { view } : {}),
        },
        context.provider,
      );
      return importJobState(config, project, value as ImportJob);
    } catch (error) {
      reportError(diagnostics, 'Could not read the import job', error);
      return null;
    }
  },
};

function importJobState(config: CtyObject, project: string, job: ImportJob): CtyObject {
  return {
    ...config,
    project,
    id: job.name,
    name: job.name,
    display_name: job.displayName,
    asset_source: job.assetSource,
    create_time: job.createTime,
    update_time: job.updateTime,
    complete_time: job.completeTime,
    state: job.state,
    labels: new Map(Object.entries(job.labels)),
    execution_report_json: JSON.stringify(job.executionReport),
    validation_report_json: JSON.stringify(job.validationReport),
    object_storage_payload_json: JSON.stringify(job.objectStoragePayload),
    inline_payload_json: JSON.stringify(job.inlinePayload),
  };
}
