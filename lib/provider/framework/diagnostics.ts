/**
 * What a provider reports to Terraform: errors and warnings, each with a
 * summary, a detail and optionally the attribute it is about. Terraform
 * prints them with the resource's address and the configuration's line.
 */

/** A path into a value: attribute names, list indices and map keys. */
export type AttributePath = readonly (string | number)[];

/** One diagnostic (tfplugin6 `Diagnostic`). */
export interface Diagnostic {
  readonly severity: 'ERROR' | 'WARNING';
  readonly summary: string;
  readonly detail: string;
  /** The attribute the diagnostic is about (a string is an attribute name, a number a list index). */
  readonly attribute?: AttributePath;
}

/** The diagnostics one call collects; a call whose diagnostics hold an error has failed. */
export class Diagnostics {
  private readonly items: Diagnostic[] = [];

  public error(summary: string, detail: string, attribute?: AttributePath): void {
    this.items.push({ severity: 'ERROR', summary, detail, ...(attribute ? { attribute } : {}) });
  }

  public warning(summary: string, detail: string, attribute?: AttributePath): void {
    this.items.push({ severity: 'WARNING', summary, detail, ...(attribute ? { attribute } : {}) });
  }

  public add(diagnostic: Diagnostic): void {
    this.items.push(diagnostic);
  }

  public get hasError(): boolean {
    return this.items.some((d) => d.severity === 'ERROR');
  }

  public get all(): readonly Diagnostic[] {
    return this.items;
  }
}
