import type { ImportJob } from '../../api/import-job-result';
import { validateImportJobView } from '../../api/import-job-view';
import { jsonWithNulls } from '../../api/wire';
import { validateLocatedResource } from '../../iam/located-resource';
import { IMPORT_JOB } from '../../iam/resource-name';
import { reportError } from '../errors';
import type { CtyObject } from '../framework/cty';
import type { DataSourceType } from '../framework/resource';
import type { Attribute } from '../framework/schema';
import type { GoogleIamContext } from '../provider-context';
import { knownValue, partial } from '../framework/cty-values';
import { encodeModel, ModelReader } from '../framework/model';
import { readGoogle } from './google-read';

const computed = (name: string, description: string): Attribute => ({ name, description, type: 'string', computed: true });
const JSON_NULLS = " (every field of Google's schema, null where Google did not send it)";

/** `googleiam_import_job`: a Migration Center import job, as the Direct form's `getImportJob` returns it. */
export const IMPORT_JOB_DATA_SOURCE: DataSourceType<GoogleIamContext> = {
  typeName: 'googleiam_import_job',
  schema: {
    version: 0,
    description:
      'Reads a Migration Center import job (`migrationcenter.googleapis.com/v1alpha1`). An attribute Google did not send is null.',
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
      computed('id', "The import job's full name, as read."),
      computed('name', "The import job's full name, as Google sent it."),
      computed('display_name', 'Its display name.'),
      computed('asset_source', 'The source of the assets.'),
      computed('create_time', 'When it was created.'),
      computed('update_time', 'When it was last updated.'),
      computed('complete_time', 'When it completed; null until then.'),
      computed('state', 'Its state.'),
      { name: 'labels', description: 'Its labels; null when it has none.', type: ['map', 'string'], computed: true },
      computed('execution_report_json', `The execution report, as JSON text${JSON_NULLS}; null when Google sent none (the basic view).`),
      computed('validation_report_json', `The validation report, as JSON text${JSON_NULLS}; null when Google sent none (the basic view).`),
      computed(
        'object_storage_payload_json',
        `The Cloud Storage payload (\`gcsPayload\`), as JSON text${JSON_NULLS}; null when the payload is not there.`,
      ),
      computed('inline_payload_json', `The inline payload, as JSON text${JSON_NULLS}; null when the payload was not sent inline.`),
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
      const job = decodeImportJob(config);
      const { name, project, value } = await readGoogle(
        {
          kind: 'importJob',
          target: {
            collection: IMPORT_JOB.collection,
            location: job.location,
            id: job.importJobId,
            ...(job.project ? { project: job.project } : {}),
          },
          ...(job.view ? { view: job.view } : {}),
        },
        context.provider,
      );
      return importJobState(job, name, project, value as ImportJob);
    } catch (error) {
      reportError(diagnostics, 'Could not read the import job', error);
      return null;
    }
  },
};

/** What a configuration of `googleiam_import_job` asks for: the typed model of its configured attributes. */
interface ImportJobModel {
  readonly importJobId: string;
  readonly location: string;
  readonly project?: string;
  readonly view?: string;
}

function decodeImportJob(config: CtyObject): ImportJobModel {
  const fields = ModelReader.decode(IMPORT_JOB_DATA_SOURCE.schema.attributes, config);
  const [project, view] = [fields.optionalString('project'), fields.optionalString('view')];
  return {
    importJobId: fields.string('import_job_id'),
    location: fields.string('location'),
    ...(project === undefined ? {} : { project }),
    ...(view === undefined ? {} : { view }),
  };
}

/** The job as state: what Google did not send is null, in the JSON texts too (lib/api/wire.ts, jsonWithNulls). */
function importJobState(model: ImportJobModel, name: string, project: string, job: ImportJob): CtyObject {
  const json = (part: object | undefined) => (part === undefined ? null : jsonWithNulls(part));
  return encodeModel(IMPORT_JOB_DATA_SOURCE.schema.attributes, {
    import_job_id: model.importJobId,
    location: model.location,
    view: model.view,
    project,
    id: name,
    name: job.name,
    display_name: job.displayName,
    asset_source: job.assetSource,
    create_time: job.createTime,
    update_time: job.updateTime,
    complete_time: job.completeTime,
    state: job.state,
    labels: job.labels === undefined ? undefined : new Map(Object.entries(job.labels)),
    execution_report_json: json(job.executionReport),
    validation_report_json: json(job.validationReport),
    object_storage_payload_json: json(job.objectStoragePayload),
    inline_payload_json: json(job.inlinePayload),
  });
}
