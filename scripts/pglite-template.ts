// Run by `npm install` (postinstall): saves an empty embedded database, and the same with the schema migrated, so
// the first `npm start` skips initdb and the migrations. Never fails the install: without the templates the first
// start simply initialises and migrates the database itself.
import { writeEmptyTemplate, writeSchemaTemplate } from '../server/src/db/template.js';

try {
  const started = Date.now();
  const empty = await writeEmptyTemplate();
  const schema = await writeSchemaTemplate();
  console.log(`saved the embedded database templates (${Date.now() - started} ms): ${empty}, ${schema}`);
} catch (error) {
  console.warn(
    `could not save the embedded database templates; the first start will initialise it instead: ${String(error)}`,
  );
}
