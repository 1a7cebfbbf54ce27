import type { GoogleRestClient } from './client';

/** Migration Center's import jobs: `migrationcenter.googleapis.com/v1alpha1/projects/{p}/locations/{l}/importJobs/{id}`. */
export class ImportJobsApi {
  /** The API version import jobs are read at. */
  public static readonly API_VERSION = 'v1alpha1';

  constructor(private readonly client: GoogleRestClient) {}

  /** `GET v1alpha1/projects/{p}/locations/{l}/importJobs/{id}[?view=…]`; the raw wire JSON. */
  public get(name: string, view?: string): Promise<Record<string, unknown>> {
    return this.client.request<Record<string, unknown>>({
      service: 'migrationcenter',
      path: `${ImportJobsApi.API_VERSION}/${name}`,
      query: { view },
    });
  }
}
