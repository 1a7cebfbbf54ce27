/** A place in a (possibly multi-line) source text, for error messages. */
export interface SourcePosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based, counted in characters of that line. */
  readonly column: number;
  /** The text of that line, without its newline. */
  readonly lineText: string;
}

/** Converts an offset into line, column and the text of the line. */
export function positionAt(source: string, offset: number): SourcePosition {
  const clamped = Math.max(0, Math.min(offset, source.length));
  const lineStart = source.lastIndexOf('\n', clamped - 1) + 1;
  const newline = source.indexOf('\n', lineStart);
  const lineEnd = newline < 0 ? source.length : newline;
  const line = source.slice(0, lineStart).split('\n').length;
  return { line, column: clamped - lineStart + 1, lineText: source.slice(lineStart, lineEnd) };
}

/**
 * `line 2, column 7:` followed by the source line and a caret under the
 * column. Tabs before the caret are kept so it lines up in a terminal.
 */
export function describePosition(source: string, offset: number): string {
  const { line, column, lineText } = positionAt(source, offset);
  const padding = lineText.slice(0, column - 1).replace(/[^\t]/g, ' ');
  return `line ${line}, column ${column}:\n  ${lineText}\n  ${padding}^`;
}
