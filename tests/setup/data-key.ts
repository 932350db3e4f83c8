/**
 * The DATA_ENCRYPTION_KEY of every server the suites start and of the test processes
 * (tests/setup/env.ts): the factories seal and open stored secrets with it, as the site does.
 */
export const TEST_DATA_ENCRYPTION_KEY = "dGVzdHMtb25seS1kYXRhLWVuY3J5cHRpb24ta2V5LTA=";
