// How long one test (or hook) may take. Bun's own default is 5 s, and a preload's
// setDefaultTimeout reaches only the first file of a run (Bun 1.4 keeps the setting per
// file and resets it after each), so every test file sets it itself, at its top:
//   setDefaultTimeout(TEST_TIMEOUT_MS);
// On a busy 2-core machine a test that takes a second alone takes many times that.
// test/foundation/test-timeouts.test.ts checks that every file does.
export const TEST_TIMEOUT_MS = 30_000;
