// Child-process entry for the service under test: the real start(env) of server/src/main.ts; prints one READY line.
import { start } from '../../server/src/main.js';

const running = await start(process.env);
process.stdout.write(`READY ${running.url}\n`);
const shutdown = () =>
  void running.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
