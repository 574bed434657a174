// Child-process entry for the compiled service (`npm run build` → dist/): plain node, no tsx. The same start(env)
// as bench/lib/server-process.ts; prints one READY line.
const { start } = await import(new URL('../../dist/server/src/main.js', import.meta.url).href);

const running = await start(process.env);
process.stdout.write(`READY ${running.url}\n`);
const shutdown = () =>
  void running.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
