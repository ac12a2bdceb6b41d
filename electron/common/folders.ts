// Whether a path lies inside a folder, by whole path components ("/data/x" is inside "/data", "/database"
// is not). Both paths are compared as given: callers pass real paths (links resolved) when links matter.

import { sep } from 'node:path';

export function isWithin(path: string, folder: string): boolean {
  if (path === folder) return true;
  const prefix = folder.endsWith(sep) ? folder : `${folder}${sep}`; // the root folder "/" already ends in sep
  return path.startsWith(prefix);
}
