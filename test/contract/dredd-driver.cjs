// Runs Dredd programmatically and writes one JSON record per transaction (pass, fail, skip, error), so the
// caller can assert on counts and coverage instead of parsing the console report.
// Usage: node dredd-driver.cjs <spec> <endpoint> <hookfile> <results.json>
'use strict';
const { EventEmitter } = require('node:events');
const { writeFileSync } = require('node:fs');
const Dredd = require('dredd');

const [specPath, endpoint, hookfile, outFile] = process.argv.slice(2);
const emitter = new EventEmitter();
const results = [];

function record(status, test, error) {
  results.push({
    status,
    name: test.origin
      ? [test.origin.resourceName, test.origin.actionName, test.origin.exampleName].filter(Boolean).join(' > ')
      : '',
    title: test.title,
    path: test.origin ? test.origin.resourceName : null,
    action: test.origin ? test.origin.actionName : null,
    expectedStatus: test.expected && test.expected.statusCode !== undefined ? String(test.expected.statusCode) : null,
    contentType:
      (test.expected &&
        test.expected.headers &&
        (test.expected.headers['Content-Type'] || test.expected.headers['content-type'])) ||
      null,
    actualStatus: test.actual && test.actual.statusCode !== undefined ? String(test.actual.statusCode) : null,
    message: error ? String(error.stack || error) : test.message || '',
  });
}
emitter.on('test pass', (test) => record('pass', test));
emitter.on('test fail', (test) => record('fail', test));
emitter.on('test skip', (test) => record('skip', test));
emitter.on('test error', (error, test) => record('error', test, error));

const dredd = new Dredd({
  endpoint,
  path: [specPath],
  hookfiles: [hookfile],
  emitter,
  reporter: [],
  loglevel: process.env.DREDD_LOGLEVEL || 'warning',
  'inline-errors': true,
  color: false,
});
dredd.run((error, stats) => {
  writeFileSync(
    outFile,
    JSON.stringify({ error: error ? String(error.stack || error) : null, stats, results }, null, 2),
  );
  process.exitCode = error || stats.failures > 0 || stats.errors > 0 ? 1 : 0;
});
