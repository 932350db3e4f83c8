import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    // Root middleware guards every request (pages, .data and /api/*) in one place.
    v8_middleware: true,
  },
} satisfies Config;
