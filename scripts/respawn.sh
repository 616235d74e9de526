#!/usr/bin/env bash
# respawn.sh COMMAND [ARGS...]: run COMMAND, and run it again whenever it dies, until this script
# is told to stop (TERM or INT, passed on to the command). `make run` keeps its Celery worker
# and beat alive with it, as the compose file does with `restart: unless-stopped`.
# Told to stop, it waits for the command to finish stopping and starts nothing again: Ctrl-C
# reaches the command too (the terminal signals the whole group), and the command's clean exit
# must not read as a death to recover from.
set -u
child=""
stopping=""
stop() {
  stopping=1
  [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
}
trap stop TERM INT
while [ -z "$stopping" ]; do
  "$@" &
  child=$!
  # A stop that came between the start and the line above found no child to pass it on to.
  [ -n "$stopping" ] && kill -TERM "$child" 2>/dev/null
  wait "$child"
  status=$?
  # A signal ends `wait` early: wait on until the command has really stopped.
  while kill -0 "$child" 2>/dev/null; do
    wait "$child"
    status=$?
  done
  [ -n "$stopping" ] && break
  echo "respawn: $1 exited with status $status; starting it again in 1 s" >&2
  sleep 1 &
  wait $!
done
exit 0
