// `npm run test:contract`: the Dredd contract suite alone (server, Prism proxies and Dredd are started and stopped
// by the runner). Exits 1 on any failure, error, unexplained skip, uncovered operation or Prism violation.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatReport, runContractSuite } from '../test/contract/runner.js';

const report = await runContractSuite();
process.stdout.write(`${formatReport(report)}\n`);
// CONTRACT_LOGS=<dir> keeps the server, proxy and Dredd output for diagnosis.
if (process.env.CONTRACT_LOGS) {
  mkdirSync(process.env.CONTRACT_LOGS, { recursive: true });
  for (const [name, text] of Object.entries(report.logs))
    writeFileSync(path.join(process.env.CONTRACT_LOGS, `${name}.log`), text);
}
const ok =
  report.failed.length === 0 &&
  report.errored.length === 0 &&
  report.unexplainedSkips.length === 0 &&
  report.uncovered.length === 0 &&
  report.unexercisedStatuses.length === 0 &&
  report.prismViolations.length === 0 &&
  report.dreddError === null;
process.exit(ok ? 0 : 1);
