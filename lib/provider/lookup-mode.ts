import { lookupAnswerOfError, serializeLookupAnswer, type LookupAnswer } from '../contract/lookup-answer';
import { parseReadQuery } from '../contract/read-query';
import { readGoogle } from './data-sources/google-read';
import { createContext } from './provider-context';

/**
 * The Direct-form lookup (`terraform-provider-googleiam.js lookup`): a read
 * query on stdin (lib/contract/read-query.ts), the answer on stdout
 * (lib/contract/lookup-answer.ts), through the data sources' read path with
 * the environment's credentials. Never throws for an error of the read: it is the answer.
 */
export async function runLookup(json: string, env: NodeJS.ProcessEnv): Promise<LookupAnswer> {
  try {
    const { value, project } = await readGoogle(parseReadQuery(json), createContext({}, env));
    return { value, project };
  } catch (error) {
    return lookupAnswerOfError(error);
  }
}

/** Reads the query from stdin, writes the answer to stdout. */
export async function lookupMain(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  const answer = await runLookup(Buffer.concat(chunks).toString('utf8'), process.env);
  process.stdout.write(serializeLookupAnswer(answer));
}
