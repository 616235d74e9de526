#!/usr/bin/env bash
# respawn.sh COMMAND [ARGS...]: run COMMAND, and run it again whenever it dies, until this script
# is told to stop (TERM or INT, passed on to the command). `make run` keeps its Celery worker
# and beat alive with it, as the compose file does with `restart: unless-stopped`.
set -u
child=""
stop() {
  [ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child"
  exit 0
}
trap stop TERM INT
while true; do
  "$@" &
  child=$!
  wait "$child"
  status=$?
  echo "respawn: $1 exited with status $status; starting it again in 1 s" >&2
  sleep 1
done
