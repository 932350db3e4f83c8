import { setPasswordEstimator } from "#app/domain/password";

/**
 * zxcvbn with its common dictionary (passwords, keyboard rows), built once when the server
 * starts and handed to the password rule of app/domain/password.ts. Only the server loads it:
 * the browser's bundle never carries the dictionary.
 */
async function loadPasswordEstimator(): Promise<void> {
  const [{ ZxcvbnFactory }, common] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
  ]);
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary },
    graphs: common.adjacencyGraphs,
  });
  setPasswordEstimator((password) => {
    const result = zxcvbn.check(password);
    return { score: result.score, warning: result.feedback.warning };
  });
}

/** Awaited by server/app.ts before the first request (and by the unit tests' setup). */
export const passwordEstimatorReady = loadPasswordEstimator();
