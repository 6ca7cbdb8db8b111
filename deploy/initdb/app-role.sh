#!/bin/sh
# Run once by the postgres image when it creates the database: the role the service connects as. It owns
# nothing; `tablelog migrate` (as the owner, POSTGRES_USER) grants it what the service needs and no more.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v app_password="$TABLELOG_APP_PASSWORD" <<'SQL'
CREATE ROLE tablelog_app LOGIN PASSWORD :'app_password' NOSUPERUSER NOCREATEDB NOCREATEROLE;
SQL
