// Errors the store raises on its own account (SQLite's own errors pass through unchanged).

/** The database was written by a newer version of the app: opening it could corrupt it, so we refuse. */
export class StoreTooNewError extends Error {
  override readonly name = 'StoreTooNewError';
  constructor(
    readonly file: string,
    readonly fileVersion: number,
    readonly appVersion: number,
  ) {
    super(
      `${file}: the database has schema version ${fileVersion}, but this app knows only up to version ${appVersion}; ` +
        'open it with a newer version of the app',
    );
  }
}
