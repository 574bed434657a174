// The contract's types. The one source is openapi/generated/schema.d.ts (`npm run gen:types`); the package build
// copies it beside the compiled client (scripts/build.mjs), so the published types are always the contract's.
export type * from '../../openapi/generated/schema.js';
