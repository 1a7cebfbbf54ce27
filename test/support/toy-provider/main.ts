/** The toy provider's process (bundled by the tests, see bundle.ts). */
import { serveProvider } from '../../../lib/provider/protocol/serve';
import { toyProvider } from './toy-provider';

serveProvider(() => toyProvider);
