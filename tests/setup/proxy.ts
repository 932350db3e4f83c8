/**
 * Requests as Fly's proxy forwards them to a server run with TRUST_PROXY=true: the browser's
 * https Origin, X-Forwarded-Proto and the client address in Fly-Client-IP. Each `newClient()`
 * is a fresh address, so each test has rate limits of its own.
 */
export function viaFlyProxy(server: { url: string }, prefix: string) {
  let counter = 0;
  return {
    newClient() {
      counter += 1;
      return `${prefix}.${counter}`;
    },
    viaProxy(client: string, headers: Record<string, string> = {}) {
      return {
        Origin: `https://${new URL(server.url).host}`,
        "X-Forwarded-Proto": "https",
        "Fly-Client-IP": client,
        ...headers,
      };
    },
  };
}
