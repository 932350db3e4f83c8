import { hostileInput } from "#tests/routes/hostile-input-suite";

/** Hostile input as a customer, and the inputs it found (tests/routes/hostile-input-suite.ts). */
const suite = hostileInput();
suite.as("customer");
suite.foundInputs();
suite.log();
