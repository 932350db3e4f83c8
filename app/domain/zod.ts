import { z } from "zod";

// zod 4 probes `new Function` to compile fast validators; under our CSP (no 'unsafe-eval')
// that probe is reported as a violation in the browser. Validate without it.
z.config({ jitless: true });

export { z };
