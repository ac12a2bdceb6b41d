// Bundle errors name the file, the 1-based line and the field (docs/bundle-format.md), e.g.
//   memories.jsonl:12: field "agent": expected a string, but it is missing

export class BundleError extends Error {
  override readonly name = 'BundleError';
  constructor(
    readonly file: string,
    /** 1-based line number; undefined for a whole-file problem (e.g. a missing memories.jsonl). */
    readonly line: number | undefined,
    /** The field path, e.g. `claims[0].subject`; undefined when the problem is the line itself. */
    readonly field: string | undefined,
    readonly detail: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${field === undefined ? '' : `field "${field}": `}${detail}`);
  }
}

/** Import stops collecting after this many errors: past that, more are rarely useful. */
export const MAX_ERRORS = 20;

export class BundleImportError extends Error {
  override readonly name = 'BundleImportError';
  constructor(
    readonly dir: string,
    readonly errors: BundleError[],
    /** True when import stopped at MAX_ERRORS and there may be more. */
    readonly truncated: boolean,
  ) {
    const head = `bundle ${dir} was not imported (nothing was written): ${errors.length} error${errors.length === 1 ? '' : 's'}`;
    const tail = truncated ? `\n  (stopped after ${MAX_ERRORS} errors)` : '';
    super(`${head}${truncated ? ' or more' : ''}\n${errors.map((e) => `  ${e.message}`).join('\n')}${tail}`);
  }
}

/** Gathers errors across the whole bundle; throws as soon as MAX_ERRORS are in hand. */
export class ErrorCollector {
  readonly errors: BundleError[] = [];

  constructor(private readonly dir: string) {}

  add(file: string, line: number | undefined, field: string | undefined, detail: string): void {
    this.errors.push(new BundleError(file, line, field, detail));
    if (this.errors.length >= MAX_ERRORS) throw new BundleImportError(this.dir, this.errors, true);
  }

  get any(): boolean {
    return this.errors.length > 0;
  }

  throwIfAny(): void {
    if (this.any) throw new BundleImportError(this.dir, this.errors, false);
  }
}
