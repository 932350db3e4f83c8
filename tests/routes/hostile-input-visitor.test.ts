import { hostileInput } from "#tests/routes/hostile-input-suite";

/** Hostile input as a visitor (tests/routes/hostile-input-suite.ts). */
const suite = hostileInput();
suite.routeTable();
suite.as("visitor");
suite.log();
