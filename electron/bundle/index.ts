export { importBundle, type ImportOptions, type ImportSummary } from './import';
export { exportBundle, type ExportSummary } from './export';
export { BundleError, BundleImportError, MAX_ERRORS } from './errors';
export { writeJsonlBundle } from './write';
export { DEFAULT_READ_LIMITS, type ReadLimits } from './readFile';
