// `npm run build` (and `npm pack`, through prepack): compiles src/ with tsc into dist/ and puts the contract's
// generated types beside it as dist/schema.d.ts, the file the compiled declarations import.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const schema = fileURLToPath(new URL('../../openapi/generated/schema.d.ts', import.meta.url));
if (!existsSync(schema)) {
  console.error(`${schema} is missing: run \`npm run gen:types\` in the repository first.`);
  process.exit(1);
}
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(`${here}dist`, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', `${here}tsconfig.json`], { stdio: 'inherit' });
copyFileSync(schema, `${here}dist/schema.d.ts`);
console.log('built client/dist');
