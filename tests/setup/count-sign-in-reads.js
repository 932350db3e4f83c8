// @ts-check
// Preloaded (node --import) into the test server of tests/integration/sign-in-lookups.test.ts
// only: counts the reads of the sign_ins table and reports the running total on every answer,
// so a test can tell how many lookups one request made. Plain JavaScript: node loads it as is.
import http from "node:http";
import Database from "better-sqlite3";

let signInReads = 0;

// Every better-sqlite3 statement shares one prototype; the sign-in lookup is the statement that
// selects from "sign_ins" (getSignedIn in app/web/sign-in.server.ts).
const probe = new Database(":memory:");
const statement = Object.getPrototypeOf(probe.prepare("SELECT 1"));
probe.close();
const get = statement.get;
statement.get = function countSignInReads(/** @type {unknown[]} */ ...params) {
  if (/^select\b[\s\S]*\bfrom "sign_ins"/i.test(this.source)) signInReads += 1;
  return get.apply(this, params);
};

const writeHead = http.ServerResponse.prototype.writeHead;
// @ts-expect-error: the overloads of writeHead are passed through unchanged
http.ServerResponse.prototype.writeHead = function reportSignInReads(...args) {
  if (!this.headersSent) this.setHeader("X-Sign-In-Reads", String(signInReads));
  // @ts-expect-error: see above
  return writeHead.apply(this, args);
};
