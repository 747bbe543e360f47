// For suites that switch backends test by test: the backend the suite started
// with comes back after each test, and the pool stops after the suite.
import { afterAll, afterEach } from '@jest/globals';
import * as da from '../src/index.js';

function keepBackend(): void {
  const { backend } = da.configure();
  afterEach(() => {
    da.configure({ backend });
  });
  afterAll(async () => {
    await da.shutdown();
  });
}

export { keepBackend };
