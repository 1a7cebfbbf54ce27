// Prints one plain closing line, "tests: N passed, N failed, N skipped",
// so a CI that does not know Jest's own summary can still read the result.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numFailedTestSuites } = results;
    const failed = numFailedTests + (numFailedTests === 0 ? numFailedTestSuites : 0);
    process.stdout.write(`\ntests: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`);
  }
}
module.exports = SummaryReporter;
