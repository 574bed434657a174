// Run by `npm install` (postinstall): saves an empty embedded database so the first `npm start` skips initdb.
// Never fails the install: without the template the first start simply initialises the database itself.
import { writeEmptyTemplate } from '../server/src/db/template.js';

try {
  const started = Date.now();
  const file = await writeEmptyTemplate();
  console.log(`saved the empty embedded database template (${Date.now() - started} ms): ${file}`);
} catch (error) {
  console.warn(`could not save the embedded database template; the first start will initialise it instead: ${String(error)}`);
}
