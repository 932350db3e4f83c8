#!/bin/sh
# The image's entry point (Dockerfile CMD), docs/deploy.md "Backups".
# - With a bucket configured (BUCKET_NAME, set by `fly storage create`), Litestream supervises
#   the site: on an empty volume it first restores the newest replica, then replicates every
#   write while `node server.js` runs, passing SIGTERM on to it.
# - Without one, the site runs alone (docker run on a laptop).
# - While the file "$DATABASE_PATH.maintenance" exists, nothing opens the database, so an
#   operator can restore a backup over ssh (npm run restore refuses while the site runs).
set -eu
: "${DATABASE_PATH:?DATABASE_PATH must name the database file}"
if [ -e "$DATABASE_PATH.maintenance" ]; then
  echo "Maintenance: $DATABASE_PATH.maintenance exists, so the site is not started." \
    "Remove it and restart the machine to start the site."
  trap 'exit 0' TERM INT
  while :; do sleep 1; done
fi
# V8 sizes its young generation from the memory it may use: in Fly's 512 MB, 1 MB halves, and a
# page's short-lived objects reach the old generation before they die. 8 MB halves cut a
# signed-in page's CPU by a third; 16 MB cut no more, for 16 MB more (docs/benchmarks.md,
# issue 28). package.json's start runs the same.
if [ -n "${BUCKET_NAME:-}" ]; then
  litestream restore -config /etc/litestream.yml -if-db-not-exists -if-replica-exists "$DATABASE_PATH"
  exec litestream replicate -config /etc/litestream.yml -exec "node --max-semi-space-size=8 server.js"
fi
exec node --max-semi-space-size=8 server.js
