import type { Config } from 'jest';

// ESM TypeScript through ts-jest; type errors are the build's job (`tsc`), so
// tests transpile each file alone (isolatedModules in tsconfig) and start fast.
const tsJest: [string, Record<string, unknown>] = [
  'ts-jest',
  { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json' },
];

const config: Config = {
  extensionsToTreatAsEsm: ['.ts'],
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Workspace packages resolve to their sources, so tests never run stale builds.
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^kernels-wasm$': '<rootDir>/packages/kernels-wasm/src/index.ts',
  },
  transform: { '^.+\\.ts$': tsJest },
  reporters: ['default', '<rootDir>/scripts/summary-reporter.cjs'],
};

export default config;
