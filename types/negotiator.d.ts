/**
 * The part of negotiator 0.6.4 the server uses. @types/negotiator leaves out `encoding`'s second
 * argument, the server's own order for codings the client ranks the same (lib/encoding.js).
 */
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    encoding(available: readonly string[], preferred: readonly string[]): string | undefined;
  }
}
