/** The protocol layer: serves any ProviderDefinition (../framework) to Terraform. */
export { serveProvider } from './serve';
