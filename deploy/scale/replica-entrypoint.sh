#!/usr/bin/env bash
# The replica: on first start, a base backup of the primary (pg_basebackup, streaming its WAL, with a
# replication slot so the primary keeps the WAL the replica has not received); then PostgreSQL as a hot
# standby (the backup's standby.signal and primary_conninfo, written by -R).
set -euo pipefail
export PGPASSWORD="$REPLICATION_PASSWORD"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until pg_isready -h "$PRIMARY_HOST" -U replicator -d postgres; do sleep 1; done
    pg_basebackup -h "$PRIMARY_HOST" -U replicator -D "$PGDATA" -X stream -R -C -S replica_1 -c fast
    chmod 700 "$PGDATA"
fi
exec postgres -D "$PGDATA" -c hot_standby=on
