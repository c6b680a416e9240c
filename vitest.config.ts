import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,server,electron,renderer,scripts}/**/*.test.ts', 'renderer/**/*.test.tsx', 'tests/unit/**/*.test.ts'],
    exclude: ['node_modules', 'dist', 'tests/ui', 'tests/electron'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: suites that spawn servers, ffmpeg and keyrings run two at a time.
    maxWorkers: 2,
    pool: 'forks',
  },
});
