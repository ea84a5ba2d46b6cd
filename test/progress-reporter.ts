// What a long `npm test` says while it runs. At a terminal, vitest's own default reporter (its live summary shows the
// files running). Anywhere else (a log file, a pipe, CI), where that summary is not drawn: one line per test file as
// it finishes, with how many files are done of how many, its tests and how long it took from start to end (imports
// and hooks included), and a failed test's name under its file; when no file has finished for a minute, one line
// naming the files still running. The errors and the totals at the end are the default reporter's.
import { performance } from "node:perf_hooks";
import { DefaultReporter, type TestModule, type TestSpecification } from "vitest/node";

/** How long the output may stay silent before a line says what is still running. */
const QUIET_MS = 60_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, "0")}`;

const key = (testModule: TestModule) => `${testModule.project.name} ${testModule.moduleId}`;

export default class ProgressReporter extends DefaultReporter {
  private total = 0;
  private done = 0;
  /** When each file still running was queued, by project and file. */
  private readonly started = new Map<string, { module: TestModule; since: number }>();
  private lastLine = 0;
  private heartbeat: NodeJS.Timeout | undefined;

  override onTestRunStart(specifications: ReadonlyArray<TestSpecification>) {
    super.onTestRunStart(specifications);
    this.total = specifications.length;
    this.lastLine = performance.now();
    if (this.isTTY) return;
    this.log(`vitest: ${this.total} test file${this.total === 1 ? "" : "s"}`);
    this.heartbeat = setInterval(() => this.sayWhatRuns(), QUIET_MS / 4).unref();
  }

  override onTestModuleQueued(testModule: TestModule) {
    super.onTestModuleQueued(testModule);
    this.started.set(key(testModule), { module: testModule, since: performance.now() });
  }

  override onTestRunEnd(...args: Parameters<DefaultReporter["onTestRunEnd"]>) {
    clearInterval(this.heartbeat);
    return super.onTestRunEnd(...args);
  }

  protected override printTestModule(testModule: TestModule) {
    if (this.isTTY) return super.printTestModule(testModule);
    const state = testModule.state();
    if (state === "queued" || state === "pending") return;
    const tests = [...testModule.children.allTests()];
    const failed = tests.filter((test) => test.result().state === "failed");
    const since = this.started.get(key(testModule))?.since;
    this.started.delete(key(testModule));
    const took = since === undefined ? "" : `  ${seconds(performance.now() - since)}`;
    const counts = `${tests.length} test${tests.length === 1 ? "" : "s"}${failed.length ? `, ${failed.length} failed` : ""}`;
    const mark = state === "failed" ? "✗" : "✓";
    this.done++;
    this.lastLine = performance.now();
    this.log(
      ` ${mark} ${this.done}/${this.total} ${testModule.project.name}  ${this.relative(testModule.moduleId)}  ${counts}${took}`,
    );
    for (const test of failed) this.log(`     ✗ ${test.fullName}`);
  }

  private sayWhatRuns() {
    const now = performance.now();
    if (now - this.lastLine < QUIET_MS || this.started.size === 0) return;
    const running = [...this.started.values()].map(
      (m) => `${this.relative(m.module.moduleId)} (${clock(now - m.since)})`,
    );
    this.lastLine = now;
    this.log(`   … ${this.done}/${this.total} done; running: ${running.join(", ")}`);
  }
}
