import { passwordEstimatorReady } from "#app/web/passwords.server";

// The strength estimator (zxcvbn and its dictionary) the server loads at start, for the files
// that parse a password: building it costs a second, which the other unit files skip.
await passwordEstimatorReady;
