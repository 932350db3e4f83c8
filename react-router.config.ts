import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    // Root middleware guards every request (pages, .data and /api/*) in one place.
    v8_middleware: true,
    // Handlers get the request as it came instead of a copy with `.data`, `index` and `_routes`
    // taken out of its URL: the copies were two new Requests (each with its own abort signal)
    // per loader and action call, on every answer. Nothing here reads the path of a page's
    // request; a handler that needs it reads the normalized `url` argument.
    v8_passThroughRequests: true,
  },
} satisfies Config;
