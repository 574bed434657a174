/**
 * The direction of dependencies, checked by `npm run lint`. Inner layers never import outer ones:
 * core (pure rules and contract types) ← db, storage, http ← modules ← app. Modules use each other's services,
 * never each other's repositories, and never in a circle (see docs/adding-a-resource.md).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle; break it by moving the shared piece down a layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-neutral',
      severity: 'error',
      comment: 'core/ holds pure rules and contract types that every layer may use; it depends on none of them.',
      from: { path: '^server/src/core/' },
      to: { path: '^server/src/(http|modules|db|storage)/|^server/src/(app|main|config)\\.ts$' },
    },
    {
      name: 'http-knows-no-module',
      severity: 'error',
      comment: 'http/ is the request pipeline; the modules plug into it, not the other way round.',
      from: { path: '^server/src/http/' },
      to: { path: '^server/src/(modules|db)/' },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment: "A module reads another module's data through that module's service.",
      from: { path: '^server/src/modules/([^/]+)/' },
      to: { path: '^server/src/modules/[^/]+/repository\\.ts$', pathNot: '^server/src/modules/$1/' },
    },
    {
      name: 'console-through-data-provider',
      severity: 'error',
      comment: 'The data provider is the only link from the console to the API.',
      from: {
        path: '^admin-ui/src/',
        pathNot: '^admin-ui/src/dataProvider/|^admin-ui/src/authProvider\\.ts$|\\.test\\.tsx?$',
      },
      to: { path: '^openapi/client\\.ts$|node_modules/openapi-fetch/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^openapi/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts'],
    },
  },
};
