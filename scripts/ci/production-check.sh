#!/usr/bin/env bash
# The production path as a self-hoster takes it, in a scratch copy of the tracked files (this checkout's
# node_modules stay as they are):
#   npm ci && npm run build && npm prune --omit=dev && npm start     → /api/health answers, the sign-in page renders
#   (npm ci: the checkout's installed tree linked in; PRODUCTION_CHECK_NPM_CI=1 runs npm ci here instead;
#   the build starts from the checkout's build cache; PRODUCTION_CHECK_COLD_BUILD=1 starts it cold)
#   npm run worker (pruned, web scheduler off)                        → a due sandbox post is published
#   node .next/standalone/server.js (what the Dockerfile runs)        → /api/health answers, the sign-in page renders
# and compose.yaml parses. Database: the embedded Postgres npm start brings up when DATABASE_URL is unset.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/semel-production-XXXXXX")"
# Readable by all: as root, the embedded Postgres runs its binaries as the OS user `postgres`.
chmod 755 "$SCRATCH"
STARTED=$SECONDS
GROUPS_STARTED=()

step() { printf '\n--- production check: %s (%ss)\n' "$*" "$((SECONDS - STARTED))"; }

stop_group() { # stop_group PID: SIGINT to the process group (Postgres: fast shutdown), SIGKILL after 15 s
  local pid="$1"
  kill -INT -- "-${pid}" 2>/dev/null || return 0
  for _ in $(seq 1 30); do
    kill -0 -- "-${pid}" 2>/dev/null || return 0
    sleep 0.5
  done
  kill -KILL -- "-${pid}" 2>/dev/null || true
}

cleanup() {
  local status=$?
  for pid in "${GROUPS_STARTED[@]}"; do stop_group "$pid"; done
  if [ "$status" -ne 0 ]; then
    for log in "$SCRATCH"/*.log; do
      [ -f "$log" ] || continue
      echo "--- $(basename "$log") (last 60 lines) ---" >&2
      tail -n 60 "$log" >&2
    done
  fi
  rm -rf "$SCRATCH"
}
trap cleanup EXIT

start_group() { # start_group LOG COMMAND...: in its own process group; sets STARTED_PID
  setsid "${@:2}" >"$1" 2>&1 &
  STARTED_PID=$!
  GROUPS_STARTED+=("$STARTED_PID")
}

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...: retries COMMAND every second while STARTED_PID lives
  local deadline=$((SECONDS + $1)) what="$2"
  shift 2
  until "$@" >/dev/null 2>&1; do
    if ! kill -0 "$STARTED_PID" 2>/dev/null; then
      echo "production check: the process exited before ${what}" >&2
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "production check: timed out waiting until ${what}" >&2
      return 1
    fi
    sleep 1
  done
}

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
json() { node -e 'const v=JSON.parse(require("fs").readFileSync(0,"utf8"));console.log(eval(process.argv[1]))' "$1"; }
serves_app() { # serves_app BASE: health is ok and the sign-in page renders
  curl -fsS --max-time 10 "$1/api/health" >/dev/null && curl -fsS --max-time 20 "$1/signin" | grep -q 'Sign in'
}

step "scratch copy of the tracked files in ${SCRATCH}"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar -c --null -T - --ignore-failed-read -f - 2>/dev/null) | tar -x -C "$SCRATCH"
cd "$SCRATCH"

step "compose.yaml parses"
if docker compose version >/dev/null 2>&1; then
  timeout 60 docker compose -f compose.yaml config -q
else
  # No docker compose here: a YAML parse with the yaml package from the main checkout, and the services we document.
  NODE_PATH="$ROOT/node_modules" timeout 30 node -e '
    const doc = require("yaml").parse(require("fs").readFileSync("compose.yaml", "utf8"), { merge: true });
    const services = doc.services ?? {};
    for (const name of ["web", "worker", "db"]) if (!services[name]) throw new Error(`compose.yaml: no service ${name}`);
    if (!/^postgres:16/.test(services.db.image)) throw new Error(`compose.yaml: db is ${services.db.image}, not postgres:16`);
    if (!doc.volumes || Object.keys(doc.volumes).length === 0) throw new Error("compose.yaml: no named volume for Postgres");
    console.log(`compose.yaml: services ${Object.keys(services).join(", ")}`);
  '
fi

step "node_modules: what npm ci installed in the checkout, as hard links"
# The same lockfile was just installed by `npm ci` on a clean clone (.ci/run's first step; run alone, this script
# needs an installed checkout too): linking that tree costs seconds where a second `npm ci` cost 3–4 minutes.
# Hard links are safe here: prune unlinks, it never writes into a package's files; the hidden lockfile is
# npm's cache of the tree, unlinked so prune writes its own.
if [ -n "${PRODUCTION_CHECK_NPM_CI:-}" ]; then
  timeout 300 npm ci --no-audit --no-fund --loglevel=error
else
  cp -al "$ROOT/node_modules" node_modules
  rm -f node_modules/.package-lock.json
fi

step "npm run build (with the standalone server the Dockerfile uses)"
# The checkout's build cache, when it has one (.ci/run: npm test has just built the same files from scratch): the
# build of the same sources then took 30 s here instead of 104 s. PRODUCTION_CHECK_COLD_BUILD=1 builds without it.
if [ -z "${PRODUCTION_CHECK_COLD_BUILD:-}" ] && [ -d "$ROOT/.next/cache" ]; then
  mkdir -p .next
  cp -r "$ROOT/.next/cache" .next/cache
  echo "build cache: ${ROOT}/.next/cache"
fi
NEXT_OUTPUT=standalone timeout 420 npm run build >build.log 2>&1

step "npm prune --omit=dev"
timeout 120 npm prune --omit=dev --no-audit --no-fund --loglevel=error
# The TypeScript sources go: what runs from here on is the compiled JavaScript (tsx may survive the prune as an
# optional peer of a runtime dependency, so its absence proves nothing).
rm scripts/*.mts

PORT="$(free_port)"
BASE="http://127.0.0.1:${PORT}"
export NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 SANDBOX_ENABLED=true LOG_LEVEL=warn
NEXTAUTH_SECRET="$(openssl rand -base64 32)"
APP_ENCRYPTION_KEY="$(openssl rand -base64 32)"
CRON_SECRET="$(openssl rand -base64 24)"
export NEXTAUTH_SECRET APP_ENCRYPTION_KEY CRON_SECRET
export SEMEL_DATA_DIR="$SCRATCH/.data"
unset DATABASE_URL NEXT_DIST_DIR LOG_FILE METRICS_PORT

step "npm start (pruned, embedded Postgres, scheduler off) on ${BASE}"
SINCE=$SECONDS
start_group web.log env PORT="$PORT" NEXTAUTH_URL="$BASE" SCHEDULER_ENABLED=false npm start
WEB_PID=$STARTED_PID
wait_for 120 "npm start serves the app on ${BASE}" serves_app "$BASE"
WEB_SECONDS=$((SECONDS - SINCE))
DATABASE_URL="$(cat "$SEMEL_DATA_DIR/database-url")"
export DATABASE_URL

step "seed demo data and make an API key (pruned npm run db:seed, npm run apikey)"
timeout 60 npm run --silent db:seed >seed.log 2>&1
TOKEN="$(timeout 60 npm run --silent apikey -- --workspace demo --name 'production check' | tail -n 1)"

step "a post due now to a sandbox account"
ACCOUNT="$(curl -fsS --max-time 20 -H "Authorization: Bearer ${TOKEN}" "$BASE/api/v1/accounts" \
  | json 'v.data.filter((a) => a.sandbox).sort((a, b) => (b.provider === "mastodon") - (a.provider === "mastodon"))[0].id')"
POST="$(curl -fsS --max-time 20 -X POST "$BASE/api/v1/posts" -H "Authorization: Bearer ${TOKEN}" \
  -H 'content-type: application/json' -H "idempotency-key: production-check-$RANDOM$RANDOM" \
  -d "{\"text\":\"Production check $RANDOM\",\"accountIds\":[\"${ACCOUNT}\"]}" | json 'v.id')"
statuses() { curl -fsS --max-time 10 -H "Authorization: Bearer ${TOKEN}" "$BASE/api/v1/posts/${POST}" | json 'v.deliveries.map((d) => d.status).join(",")'; }
sleep 3
[ "$(statuses)" = "scheduled" ] || { echo "production check: with the web's scheduler off the post is $(statuses), not scheduled" >&2; exit 1; }

step "npm run worker (pruned) publishes it"
SINCE=$SECONDS
start_group worker.log env PORT="$PORT" npm run worker
WORKER_PID=$STARTED_PID
sent() { [ "$(statuses)" = "sent" ]; }
wait_for 90 "the worker publishes post ${POST} (last: $(statuses))" sent
WORKER_SECONDS=$((SECONDS - SINCE))
stop_group "$WORKER_PID"

step "node .next/standalone/server.js (the Dockerfile's server)"
cp -r .next/static .next/standalone/.next/static
[ ! -d public ] || cp -r public .next/standalone/public
STANDALONE_PORT="$(free_port)"
SINCE=$SECONDS
start_group standalone.log env -C .next/standalone PORT="$STANDALONE_PORT" HOSTNAME=127.0.0.1 \
  NEXTAUTH_URL="http://127.0.0.1:${STANDALONE_PORT}" SCHEDULER_ENABLED=false node server.js
STANDALONE_PID=$STARTED_PID
wait_for 90 "the standalone server serves the app" serves_app "http://127.0.0.1:${STANDALONE_PORT}"
STANDALONE_SECONDS=$((SECONDS - SINCE))
step "stop the servers and the embedded Postgres"
stop_group "$STANDALONE_PID"
stop_group "$WEB_PID"

step "passed in $((SECONDS - STARTED))s"
echo "npm start served after ${WEB_SECONDS}s, the worker published after ${WORKER_SECONDS}s, server.js served after ${STANDALONE_SECONDS}s"
