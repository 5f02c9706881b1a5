// FormatError: the one error an adapter throws for input it cannot read, located by a JSON-path-like path.

export class FormatError extends Error {
  readonly path: string;
  // The message without the path prefix, for callers that render the path separately.
  readonly detail: string;

  constructor(path: string, detail: string) {
    super(path === "" ? detail : `${path}: ${detail}`);
    this.name = "FormatError";
    this.path = path;
    this.detail = detail;
  }
}
