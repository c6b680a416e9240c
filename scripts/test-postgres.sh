#!/bin/sh
# Starts the Debian PostgreSQL cluster if it is not running, makes a role and a database for
# the tests, and prints their URL (scripts/test.mjs exports it as TEST_DATABASE_URL).
# Needs root or the postgres user; fails (exit 1) when PostgreSQL cannot be started here.
set -eu
command -v pg_lsclusters >/dev/null || { echo "no PostgreSQL (Debian package postgresql) installed" >&2; exit 1; }
as_pg() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }
ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$ver main"; then
  pg_createcluster "$ver" main >&2
fi
if ! pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $4}' | grep -qx online; then
  # Its notes ("Removed stale pid file.") go to stderr: stdout carries only the URL.
  pg_ctlcluster "$ver" main start >&2
fi
port=$(pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $3}')
as_pg psql -q -p "$port" -v ON_ERROR_STOP=1 -d postgres <<'SQL' >/dev/null
SELECT 'CREATE ROLE ps_test LOGIN PASSWORD ''ps_test''' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ps_test') \gexec
SELECT 'CREATE DATABASE ps_test OWNER ps_test' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'ps_test') \gexec
SQL
echo "postgres://ps_test:ps_test@127.0.0.1:$port/ps_test"
