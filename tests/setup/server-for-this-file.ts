import { afterAll, beforeAll } from "vitest";
import { startServer, type TestServer } from "#tests/setup/server";

/**
 * One server per test file: started before its tests, stopped after them. The returned object
 * forwards to the running server, so tests can use it at the top level of the file.
 */
export function serverForThisFile(extraEnv: Record<string, string> = {}): Omit<TestServer, "stop"> {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(extraEnv);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const current = () => {
    if (!server) throw new Error("The test server is not running");
    return server;
  };
  return {
    get url() {
      return current().url;
    },
    get dbPath() {
      return current().dbPath;
    },
    get filesDir() {
      return current().filesDir;
    },
    get db() {
      return current().db;
    },
    count: (table) => current().count(table),
    output: () => current().output(),
  };
}
