import { availableParallelism } from 'node:os';
import type { Config } from 'jest';

// ESM TypeScript through ts-jest; type errors are the build's job (`tsc`), so
// tests transpile each file alone (isolatedModules in tsconfig) and start fast.
const tsJest: [string, Record<string, unknown>] = [
  'ts-jest',
  { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json' },
];

const common = {
  extensionsToTreatAsEsm: ['.ts'],
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '\\.unshared\\.test\\.ts$'],
  // Workspace packages resolve to their sources, so tests never run stale builds.
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^kernels-wasm$': '<rootDir>/packages/kernels-wasm/src/index.ts',
    '^kernels-wasm/ops$': '<rootDir>/packages/kernels-wasm/src/ops/index.ts',
    '^kernels-wasm/routines$': '<rootDir>/packages/kernels-wasm/src/routines.ts',
    '^kernels-wasm/lru$': '<rootDir>/packages/kernels-wasm/src/lru.ts',
    '^deferred-array$': '<rootDir>/packages/deferred-array/src/index.ts',
  },
  transform: { '^.+\\.ts$': tsJest },
};

/** Suites that run each case on both backends themselves: the extra projects would only repeat them. */
const CHOOSE_THEIR_BACKEND = ['/numpy-statistics\\.test\\.ts$', '/numpy-indexing\\.test\\.ts$'];

const config: Config = {
  // Two workers even on two cores: suites spend much of their time waiting on
  // worker threads, timers and the collector, which a second suite fills.
  // 11 min instead of 19.5 on the 2-core machine.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A worker that has loaded many suites makes every full collection slow
  // (the retention tests run dozens): recycle it past this.
  workerIdleMemoryLimit: '1GB',
  reporters: ['default', '<rootDir>/scripts/summary-reporter.cjs'],
  projects: [
    // Everything, on the default backend (WebAssembly where the host has it).
    { ...common, displayName: 'default', roots: ['<rootDir>/packages', '<rootDir>/test'], testMatch: ['**/*.test.ts'] },
    // The shared API suite again on the reference evaluator, so both backends pass the same tests.
    {
      ...common,
      displayName: 'reference',
      roots: ['<rootDir>/packages/deferred-array/src'],
      testMatch: ['**/src/{api,ir,execute,reference,trace,results}/**/*.test.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, ...CHOOSE_THEIR_BACKEND],
      setupFiles: ['<rootDir>/test/setup/reference-backend.cjs'],
    },
    // And without shared memory, as a browser page without cross-origin isolation runs: the
    // WebAssembly backend on an ordinary memory, on the calling thread, with the same results.
    {
      ...common,
      displayName: 'unshared',
      roots: ['<rootDir>/packages/deferred-array/src'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/', ...CHOOSE_THEIR_BACKEND],
      testMatch: ['**/src/{api,execute,trace,results}/**/*.test.ts', '**/*.unshared.test.ts'],
      setupFiles: ['<rootDir>/test/setup/unshared-heap.cjs', '<rootDir>/test/setup/pool-backend.cjs'],
    },
    // And on the WebAssembly backend with every kernel of execute() sent to the worker pool.
    {
      ...common,
      displayName: 'pool',
      roots: ['<rootDir>/packages/deferred-array/src'],
      testMatch: ['**/src/{api,execute,trace,results}/**/*.test.ts', '**/src/wasm/{wasm-backend,review}.test.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, ...CHOOSE_THEIR_BACKEND],
      setupFiles: ['<rootDir>/test/setup/pool-backend.cjs'],
    },
  ],
};

export default config;
