import { Fn, Token, type IResolvable } from 'cdktf';
import { Construct } from 'constructs';
import { validateLocatedResource } from '../iam/located-resource';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';
import { useGoogleIamProvider } from '../grant/default-provider';
import { validateImportJobView } from '../api/import-job-view';
import { DataGoogleiamImportJob } from '../provider-bindings/data-import-job.generated';

/** Properties of a `DataImportJob`: the arguments of `getImportJob`. */
export interface DataImportJobProps {
  /** The import job's id. */
  readonly importJobId: string;
  /** e.g. `us-central1`. */
  readonly location: string;
  /**
   * The project of the import job.
   * @default - the provider's default project: its `project`, `GOOGLE_CLOUD_PROJECT`, `GOOGLE_PROJECT`, `GCLOUD_PROJECT`, `CLOUDSDK_CORE_PROJECT`, then the credentials' project
   */
  readonly project?: string;
  /**
   * Which parts to read: `IMPORT_JOB_VIEW_BASIC` leaves the reports out, `IMPORT_JOB_VIEW_FULL`
   * includes them, `IMPORT_JOB_VIEW_UNSPECIFIED` is Google's default (see `ImportJobView`).
   * @default - not sent; Google's default is the full view
   */
  readonly view?: string;
}

/**
 * The Output form of `getImportJob`: reads a Migration Center import job at
 * plan time (the provider's `googleiam_import_job` data source; no
 * credential reaches the plan or the state). Strings are typed
 * attributes; reports, payloads and labels are Terraform values (objects or
 * lists) usable in other resources. What Google did not send is null, at
 * every level (a report's object holds every field of Google's schema, null
 * where absent), as the Direct form leaves it out.
 */
export class DataImportJob extends Construct {
  /** The import job's id. */
  public readonly importJobId: string;
  /** The import job's location. */
  public readonly location: string;
  /** The project that is read: the one given, else the provider's default project (a Terraform expression then). */
  public readonly project: string;
  /**
   * The view that is read.
   * @default - not sent
   */
  public readonly view?: string;

  /** Full name: `projects/{project}/locations/{location}/importJobs/{id}`. */
  public readonly name: string;
  /** User-friendly name, at most 63 characters. */
  public readonly displayName: string;
  /** The source the job imports into, `projects/{p}/locations/{l}/sources/{id}`. */
  public readonly assetSource: string;
  /** When the job was created (RFC 3339). */
  public readonly createTime: string;
  /** When the job was last updated (RFC 3339). */
  public readonly updateTime: string;
  /** When the job completed (RFC 3339); null until then. */
  public readonly completeTime: string;
  /** The job's state, e.g. `IMPORT_JOB_STATE_COMPLETED` (see `ImportJobState`). */
  public readonly state: string;
  /** Map of labels (null when none). */
  public readonly labels: IResolvable;
  /** `{executionErrors, framesReported, jobErrors, totalRowsCount}`; null when absent (the basic view). */
  public readonly executionReport: IResolvable;
  /** `{fileValidations, jobErrors}`; null when absent (the basic view). */
  public readonly validationReport: IResolvable;
  /** `{format, path}` (the wire's `gcsPayload`); null when absent. */
  public readonly objectStoragePayload: IResolvable;
  /** `{format, payload: [{name, data}]}`; null when absent. */
  public readonly inlinePayload: IResolvable;

  /**
   * @param scope the construct it belongs to (a stack, or a construct in one)
   * @param id the construct's id, unique among its siblings
   * @param props what is read
   */
  constructor(scope: Construct, id: string, props: DataImportJobProps) {
    super(scope, id);
    checkAt(this, () => {
      validateLocatedResource({ ...props, id: props.importJobId, idField: 'importJobId' }, isKnown);
      validateImportJobView(props.view, isKnown);
    });
    this.importJobId = props.importJobId;
    this.location = props.location;
    this.view = props.view;

    useGoogleIamProvider(this);
    const read = new DataGoogleiamImportJob(this, 'Default', {
      importJobId: props.importJobId,
      location: props.location,
      project: props.project,
      view: props.view,
    });
    this.project = props.project ?? read.project;
    this.name = read.name;
    this.displayName = read.displayName;
    this.assetSource = read.assetSource;
    this.createTime = read.createTime;
    this.updateTime = read.updateTime;
    this.completeTime = read.completeTime;
    this.state = read.state;
    this.labels = read.interpolationForAttribute('labels');
    this.executionReport = jsonValue(read.executionReportJson);
    this.validationReport = jsonValue(read.validationReportJson);
    this.objectStoragePayload = jsonValue(read.objectStoragePayloadJson);
    this.inlinePayload = jsonValue(read.inlinePayloadJson);
  }
}

/**
 * A part the data source gives as JSON text, as a Terraform value (null when
 * the text is: `jsondecode` refuses null): a resolvable object, since the jsii
 * kernel cannot hand `Fn.jsondecode`'s string token to Python, Java, Go or
 * .NET as the `IResolvable` it is declared as.
 */
function jsonValue(json: string): IResolvable {
  return Token.asAny(Fn.jsondecode(Fn.coalesce([json, 'null'])));
}
