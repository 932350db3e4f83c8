import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/setup/data-key";

// Modules that open the database read DATABASE_PATH on import: give each test file its own
// real SQLite file, freshly migrated, never the developer's data/studio.db.
process.env.DATABASE_PATH = join(tmpdir(), `studio-unit-${randomUUID()}.db`);
process.env.NODE_ENV = "test";
// The key the factories seal stored secrets with (tests/factories/secrets.ts).
process.env.DATA_ENCRYPTION_KEY = TEST_DATA_ENCRYPTION_KEY;
// Session files beside that database, not in a folder every test file shares.
process.env.FILES_DIR = `${process.env.DATABASE_PATH}.files`;
// The password strength estimator loads only where a file parses a password
// (tests/setup/password-estimator.ts): most files never do.
