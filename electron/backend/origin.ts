// Which URLs are the workbench's own page in Electron. Node's URL parser gives every non-http scheme the
// origin "null", so the check compares scheme and host, never `origin`.

export const APP_SCHEME = 'app';
export const APP_HOST = 'workbench';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** True for app://workbench/… and nothing else (not file:, not http:, not another app:// host). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}
