/**
 * How each language spells the library's camelCase member names: the one rule behind HCL's attribute names
 * (snake_case, as the provider's schema writes them) and the names a jsii language's user types.
 */

/** `camel`: TypeScript and Java; `snake`: Python and HCL; `pascal`: C# and Go. */
export type NameStyle = 'camel' | 'snake' | 'pascal';

/** `auditLogConfigs` → `audit_log_configs`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** A camelCase member name (property, argument or method) in `style`. */
export function styleName(name: string, style: NameStyle): string {
  switch (style) {
    case 'camel':
      return name;
    case 'snake':
      return snakeCase(name);
    case 'pascal':
      return name.charAt(0).toUpperCase() + name.slice(1);
  }
}

/**
 * A field path such as `grants[2].condition.expression` or `rules["GoogleIam-Public"]` in `style`: each
 * name styled; indexes and quoted keys (a user's own strings) kept as they are.
 */
export function styleFieldPath(path: string, style: NameStyle): string {
  if (style === 'camel') return path;
  return path.replace(/"(?:[^"\\]|\\.)*"|(^|\.)([A-Za-z_]\w*)/g, (match, dot: string | undefined, name: string | undefined) =>
    name === undefined ? match : `${dot}${styleName(name, style)}`,
  );
}

/**
 * The struct shapes a message describes, `{ service, apiVersion, name, policyReadMethod? }`, with each field
 * name in `style` (Python's `{ service, api_version, name, policy_read_method? }`); the rest of `text` as it is.
 */
export function styleShapes(text: string, style: NameStyle): string {
  if (style === 'camel') return text;
  return text.replace(/\{ ((?:[A-Za-z_]\w*\??, )*[A-Za-z_]\w*\??) \}/g, (_shape, fields: string) => {
    const styled = fields.split(', ').map((field) => {
      const optional = field.endsWith('?');
      return `${styleName(optional ? field.slice(0, -1) : field, style)}${optional ? '?' : ''}`;
    });
    return `{ ${styled.join(', ')} }`;
  });
}
