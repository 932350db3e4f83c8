// @ts-check
// Preloaded (node --import) into the test server of tests/integration/session-lookups.test.ts
// only: counts the reads of the sessions table and reports the running total on every answer,
// so a test can tell how many lookups one request made. Plain JavaScript: node loads it as is.
import http from "node:http";
import Database from "better-sqlite3";

let sessionReads = 0;

// Every better-sqlite3 statement shares one prototype; the session lookup is the statement that
// selects from "sessions" (getSignedIn in app/web/session.server.ts).
const probe = new Database(":memory:");
const statement = Object.getPrototypeOf(probe.prepare("SELECT 1"));
probe.close();
const get = statement.get;
statement.get = function countSessionReads(/** @type {unknown[]} */ ...params) {
  if (/^select\b[\s\S]*\bfrom "sessions"/i.test(this.source)) sessionReads += 1;
  return get.apply(this, params);
};

const writeHead = http.ServerResponse.prototype.writeHead;
// @ts-expect-error: the overloads of writeHead are passed through unchanged
http.ServerResponse.prototype.writeHead = function reportSessionReads(...args) {
  if (!this.headersSent) this.setHeader("X-Session-Reads", String(sessionReads));
  // @ts-expect-error: see above
  return writeHead.apply(this, args);
};
