import { hostileInput } from "#tests/routes/hostile-input-suite";

/** Hostile input as an admin (tests/routes/hostile-input-suite.ts). */
const suite = hostileInput();
suite.as("admin");
suite.log();
