// Names the test files a run started but never finished. When a worker process dies (a native crash, the OOM killer,
// a signal), vitest reports only "Worker exited unexpectedly" and counts the file neither passed nor failed, so the
// summary alone cannot say which file was running. This reporter prints it, with the tests not reported finished
// (results reach the main process in batches, so a test that passed just before the crash may be among them).
import type { Reporter, TestModule } from 'vitest/node';

export default class UnfinishedFilesReporter implements Reporter {
  private readonly running = new Map<string, TestModule>();

  onTestModuleStart(testModule: TestModule): void {
    this.running.set(testModule.moduleId, testModule);
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.running.delete(testModule.moduleId);
  }

  onTestRunEnd(): void {
    if (this.running.size === 0) return;
    const lines = ['', 'Started but never finished (their worker stopped while they ran):'];
    for (const testModule of this.running.values()) {
      const project = testModule.project.name ? `[${testModule.project.name}] ` : '';
      lines.push(`  ${project}${testModule.relativeModuleId}`);
      for (const test of testModule.children.allTests()) {
        const { state } = test.result();
        if (state === 'pending') lines.push(`    not reported finished: ${test.fullName}`);
      }
    }
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }
}
