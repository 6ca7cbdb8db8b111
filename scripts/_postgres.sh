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
# The replica tests (tests/cluster/) stream a second cluster from this server and run API nodes in network
# namespaces: let 127.0.0.1 replicate, with the method 127.0.0.1's other connections use (an edit of
# pg_hba.conf and a reload, never a restart), and have the ip command.
if [ "$(id -u)" = 0 ]; then
    command -v ip >/dev/null 2>&1 || {
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null
    }
    .venv/bin/python - "${TABLELOG_TEST_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/test}" <<'PY' \
        || echo "could not allow replication on the test server: the replica tests will say why" >&2
import os, sys, psycopg
with psycopg.connect(sys.argv[1], autocommit=True, connect_timeout=5) as conn:
    allowed = conn.execute(
        "SELECT count(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database) "
        "AND (address IS NULL AND type = 'host' OR address IN ('127.0.0.1', '0.0.0.0'))"
    ).fetchone()[0]
    hba = conn.execute("SHOW hba_file").fetchone()[0]
    method = conn.execute(
        "SELECT auth_method FROM pg_hba_file_rules WHERE type = 'host' AND 'all' = ANY(database) "
        "AND address = '127.0.0.1' ORDER BY line_number LIMIT 1"
    ).fetchone()
    if not allowed and method and os.path.exists(hba):
        with open(hba, "a") as file:
            file.write(f"\n# tablelog's replica tests (scripts/_postgres.sh)\nhost replication all 127.0.0.1/32 {method[0]}\n")
        conn.execute("SELECT pg_reload_conf()")
        print(f"allowed replication from 127.0.0.1 in {hba} (reloaded)", file=sys.stderr)
PY
fi
