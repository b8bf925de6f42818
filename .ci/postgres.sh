# Sourced by .ci/run: makes sure a PostgreSQL server is reachable for the dual-dialect tests and exports
# ATRIUM_TEST_PG_URL. Uses the machine's server on 127.0.0.1:5432 when it answers; otherwise installs
# Debian's postgresql if needed and starts a throwaway cluster in a temp directory (removed on exit).

pg_answers() {
  node -e "const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.query('select 1')).then(()=>c.end(),()=>process.exit(1))" "$1" \
    >/dev/null 2>&1
}

export ATRIUM_TEST_PG_URL="${ATRIUM_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
if pg_answers "$ATRIUM_TEST_PG_URL"; then
  echo "PostgreSQL reachable at $ATRIUM_TEST_PG_URL"
else
  echo "PostgreSQL not reachable at $ATRIUM_TEST_PG_URL: starting a throwaway cluster"
  if ! dpkg -S '*/bin/initdb' >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  fi
  PGBIN=$(dirname "$(dpkg -S '*/bin/initdb' | sort -V | tail -n1 | cut -d' ' -f2)")
  PGPORT=55432
  PGTMP=$(mktemp -d)
  AS_PG=""
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres: "$PGTMP"
    AS_PG="runuser -u postgres --"
  fi
  $AS_PG "$PGBIN/initdb" -D "$PGTMP/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
  $AS_PG "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGTMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null
  trap '$AS_PG "$PGBIN/pg_ctl" -D "$PGTMP/data" -m fast -w stop >/dev/null; rm -rf "$PGTMP"' EXIT
  export ATRIUM_TEST_PG_URL="postgres://postgres@127.0.0.1:$PGPORT/postgres"
  pg_answers "$ATRIUM_TEST_PG_URL" || { echo "throwaway PostgreSQL did not start" >&2; exit 1; }
  echo "throwaway PostgreSQL at $ATRIUM_TEST_PG_URL"
fi
