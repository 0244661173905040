#!/bin/bash
# Our remote scan beside Python kerchunk 0.2.2's over fsspec HTTP, on files served by nginx on
# 127.0.0.1 (optionally behind latency_proxy.py, to emulate a network): starts nginx with an
# access log in its default combined format, runs
#   kerchunk bench URLS --compare-python DIR --server-log LOG
# and stops the servers. Both tools' requests and bytes are counted in nginx's log.
#
#   apps/bench/remote_compare.sh [--delay-ms N] [--python-dir DIR] [--kerchunk BIN] \
#       ROOT 'RELATIVE/PATTERN/*.nc' [-- MORE BENCH OPTIONS]
#
# ROOT is the folder nginx serves; the pattern (relative to ROOT) names the files, in order.
# --python-dir: a kerchunk checkout (default /tmp/kerchunk-0.2.2; "" for ours only).
# Needs /usr/sbin/nginx run as root (as the client tests do), python3 for the proxy, and for
# the Python side python3-fsspec and python3-aiohttp.
set -euo pipefail

delay_ms=0
python_dir=/tmp/kerchunk-0.2.2
here=$(cd "$(dirname "$0")" && pwd)
kerchunk=${KERCHUNK:-$here/../../build/apps/kerchunk}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --delay-ms) delay_ms=$2; shift 2 ;;
    --python-dir) python_dir=$2; shift 2 ;;
    --kerchunk) kerchunk=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
if [[ $# -lt 2 ]]; then
  echo "usage: $0 [--delay-ms N] [--python-dir DIR] [--kerchunk BIN] ROOT PATTERN [-- BENCH OPTIONS]" >&2
  exit 2
fi
root=$(cd "$1" && pwd)
pattern=$2
shift 2
[[ "${1:-}" == "--" ]] && shift

work=$(mktemp -d /tmp/kerchunk-remote-compare-XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

nginx_port=$(free_port)
cat > "$work/nginx.conf" <<CONF
daemon off; user root; worker_processes 1; pid $work/nginx.pid;
error_log $work/error.log;
events {}
http {
  access_log $work/access.log;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work;
  uwsgi_temp_path $work; scgi_temp_path $work;
  server { listen 127.0.0.1:$nginx_port; root $root; }
}
CONF
: > "$work/access.log"
/usr/sbin/nginx -c "$work/nginx.conf" -e "$work/error.log" &
pids+=($!)
port=$nginx_port
if [[ "$delay_ms" != 0 ]]; then
  port=$(free_port)
  coproc PROXY { exec /usr/bin/python3 "$here/latency_proxy.py" --listen "$port" \
                   --to "127.0.0.1:$nginx_port" --delay-ms "$delay_ms"; }
  pids+=($PROXY_PID)
  read -r ready <&"${PROXY[0]}"
  [[ "$ready" == ready ]] || { echo "the latency proxy did not start" >&2; exit 1; }
fi
for _ in $(seq 50); do
  curl -s -o /dev/null "http://127.0.0.1:$nginx_port/" && break
  sleep 0.1
done

urls=()
while IFS= read -r f; do urls+=("http://127.0.0.1:$port/${f#"$root"/}"); done \
  < <(compgen -G "$root/$pattern" | sort)
if [[ ${#urls[@]} -eq 0 ]]; then echo "no files match $root/$pattern" >&2; exit 2; fi

python_args=()
[[ -n "$python_dir" ]] && python_args=(--compare-python "$python_dir")
echo "# ${#urls[@]} files of $root/$pattern over http://127.0.0.1 (delay ${delay_ms} ms each way)"
"$kerchunk" bench "${urls[@]}" "${python_args[@]}" --server-log "$work/access.log" "$@"
