import { installContractCheck } from "#tests/setup/contract";

// Every integration file: each /api answer a test receives through fetch is checked against
// /api/openapi.json (tests/setup/contract.ts).
installContractCheck();
