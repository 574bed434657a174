/** The contract's generated types, re-exported for the console. */
export type { paths, components, operations } from '../../../openapi/generated/schema';
