import type { IResolvable } from 'cdktf';
import { Construct } from 'constructs';
import { checkAt } from '../grant/errors';
import { isKnown } from '../grant/known-values';
import { IMPORT_JOB } from '../iam/resource-name';
import { GoogleRestRead } from '../lookups/google-rest-read';
import { locatedName, validateImportJobView, validateLocatedResource } from '../lookups/lookup-args';
import { executionReportFromWire, inlinePayloadFromWire, objectStoragePayloadFromWire, validationReportFromWire } from './import-job-wire';

/** Properties of a {@link DataImportJob} (SPEC.md 4.4). */
export interface DataImportJobProps {
  /** The import job's id. */
  readonly importJobId: string;
  /** e.g. `us-central1`. */
  readonly location: string;
  /** @default - the google provider's project */
  readonly project?: string;
  /**
   * `IMPORT_JOB_VIEW_BASIC` leaves the reports out; `IMPORT_JOB_VIEW_FULL` includes them.
   * @default - not sent; the API's default is the basic view
   */
  readonly view?: string;
}

/**
 * The Output form of `getImportJob`: reads a Migration Center import job at
 * plan time. Strings are typed attributes (`''` when absent); reports, payloads
 * and labels are Terraform values (objects or lists) usable in other resources.
 * Needs the google and http providers; both are added if the stack lacks them.
 */
export class DataImportJob extends Construct {
  public readonly importJobId: string;
  public readonly location: string;
  /** The project that is read (a token when it defaults to the provider's). */
  public readonly project: string;
  /** @default - not sent */
  public readonly view?: string;

  /** Full name: `projects/{project}/locations/{location}/importJobs/{id}`. */
  public readonly name: string;
  public readonly displayName: string;
  public readonly assetSource: string;
  public readonly createTime: string;
  public readonly updateTime: string;
  public readonly completeTime: string;
  /** e.g. `IMPORT_JOB_STATE_COMPLETED`. */
  public readonly state: string;
  /** Map of labels (`{}` when none). */
  public readonly labels: IResolvable;
  /** `{executionErrors, framesReported, jobErrors, totalRowsCount}`; an empty report when absent (the basic view). */
  public readonly executionReport: IResolvable;
  /** `{fileValidations, jobErrors}`; an empty report when absent (the basic view). */
  public readonly validationReport: IResolvable;
  /** `{format, path}` (the wire's `gcsPayload`); empty strings when absent. */
  public readonly objectStoragePayload: IResolvable;
  /** `{format, payload: [{name, data}]}`; empty when absent. */
  public readonly inlinePayload: IResolvable;
  /** The import job as the API returned it (JSON text). */
  public readonly body: string;

  constructor(scope: Construct, id: string, props: DataImportJobProps) {
    super(scope, id);
    checkAt(this, () => {
      validateLocatedResource({ ...props, id: props.importJobId, idField: 'importJobId' }, isKnown);
      validateImportJobView(props.view, isKnown);
    });
    this.importJobId = props.importJobId;
    this.location = props.location;
    this.project = props.project ?? GoogleRestRead.clientConfigOf(this).project;
    this.view = props.view;

    const read = new GoogleRestRead(this, 'ImportJob', {
      service: 'migrationcenter',
      path: `v1alpha1/${locatedName(IMPORT_JOB, this.project, this.location, this.importJobId)}`,
      query: props.view === undefined ? undefined : { view: props.view },
    });
    this.name = read.field('name');
    this.displayName = read.field('displayName');
    this.assetSource = read.field('assetSource');
    this.createTime = read.field('createTime');
    this.updateTime = read.field('updateTime');
    this.completeTime = read.field('completeTime');
    this.state = read.field('state');
    this.labels = read.anyField('labels', {});
    // Absent parts fall back to the same empty values as the Direct form's.
    this.executionReport = read.anyField('executionReport', executionReportFromWire(undefined));
    this.validationReport = read.anyField('validationReport', validationReportFromWire(undefined));
    this.objectStoragePayload = read.anyField('gcsPayload', objectStoragePayloadFromWire(undefined));
    this.inlinePayload = read.anyField('inlinePayload', inlinePayloadFromWire(undefined));
    this.body = read.body;
  }
}
