import { PROJECT_ID_SOURCE } from '../iam/resource-name';
import type { GoogleRestClient } from './client';
import { retrying, type RetryOptions } from './retrying';

/** A name that starts with a project number: `projects/415104041262` or `projects/415104041262/...`. */
const BY_NUMBER = /^projects\/([1-9][0-9]{0,19})(\/|$)/;
const PROJECT_ID = new RegExp(`^${PROJECT_ID_SOURCE}$`);

/**
 * Project ids for project numbers, as Cloud Resource Manager answers them
 * (`GET https://cloudresourcemanager.googleapis.com/v3/projects/{number}`,
 * which takes a number or an id). Google's resource names take a project by
 * id or by number, and both name the same policy (Secret Manager's `name`,
 * for one, comes back with the number while users write the id): a
 * provider process that tells them apart would batch, and protect, one
 * policy as two. Each number is asked once per process; names by id cost
 * nothing.
 */
export class ProjectIds {
  private readonly ids = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly client: GoogleRestClient,
    private readonly retry: RetryOptions,
  ) {}

  /**
   * `name` with a leading project number written as the project's id;
   * unchanged when it starts with an id, or when Google does not tell the
   * id (no permission `resourcemanager.projects.get`, no such project, not
   * reachable): then the name stands as written.
   */
  public async canonical(name: string): Promise<string> {
    const match = BY_NUMBER.exec(name);
    if (!match) return name;
    const id = await this.idOf(match[1]);
    return id === undefined ? name : `projects/${id}${name.slice(`projects/${match[1]}`.length)}`;
  }

  private idOf(number: string): Promise<string | undefined> {
    let id = this.ids.get(number);
    if (!id) {
      id = retrying(
        () => this.client.request<{ projectId?: unknown }>({ service: 'cloudresourcemanager', path: `v3/projects/${number}` }),
        this.retry,
      )
        .then(({ value }) => (typeof value.projectId === 'string' && PROJECT_ID.test(value.projectId) ? value.projectId : undefined))
        .catch(() => undefined);
      this.ids.set(number, id);
    }
    return id;
  }
}
