# Makes sure the tests have a PostgreSQL (see scripts/test). Sourced; exports TABLELOG_TEST_DATABASE_URL
# when it had to set a server up itself.
pg_answers() {
    .venv/bin/python - "$1" <<'PY' >/dev/null 2>&1
import sys, psycopg
psycopg.connect(sys.argv[1], connect_timeout=3).close()
PY
}
if [ -n "${TABLELOG_TEST_DATABASE_URL:-}" ]; then
    :
elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    :  # the tests start a testcontainers PostgreSQL
elif pg_answers "postgresql://postgres@127.0.0.1:5432/test"; then
    :
else
    echo "PostgreSQL does not answer at 127.0.0.1:5432: starting or installing one" >&2
    if ! command -v pg_ctlcluster >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
    fi
    version="$(ls /etc/postgresql | sort -n | tail -1)"
    if [ -z "$version" ]; then
        echo "no PostgreSQL cluster after installing; set TABLELOG_TEST_DATABASE_URL" >&2
        exit 1
    fi
    pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || pg_ctlcluster "$version" main start || true
    for _ in $(seq 1 30); do
        su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1 && break
        sleep 1
    done
    su postgres -c "psql -qc \"ALTER USER postgres PASSWORD 'tablelog-tests'\"" >/dev/null
    su postgres -c "psql -qAtc \"SELECT 1 FROM pg_database WHERE datname = 'test'\"" | grep -q 1 \
        || su postgres -c "createdb test"
    export TABLELOG_TEST_DATABASE_URL="postgresql://postgres:tablelog-tests@127.0.0.1:5432/test"
    pg_answers "$TABLELOG_TEST_DATABASE_URL" || { echo "PostgreSQL still does not answer" >&2; exit 1; }
fi
# The replica tests (tests/cluster/) start a primary and a replica of their own (initdb, pg_basebackup:
# the machine's PostgreSQL is never reconfigured) and run API nodes in network namespaces: have the ip
# command.
if [ "$(id -u)" = 0 ]; then
    command -v ip >/dev/null 2>&1 || {
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null
    }
fi
