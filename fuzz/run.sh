#!/usr/bin/env bash
# Fuzzes every target (or those named) for SECONDS each (default 600), two at a time, with seed
# corpora made from the project's fixtures (and, for CBR/CBL, the shared samples, which are read
# from ../shared and never committed). Findings land in fuzz/artifacts/TARGET/; each one found so
# far has become a regression test.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`); libFuzzer's instrumentation needs the nightly
# toolchain, which only this script uses: the project itself builds on stable.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fen move_token pgn xqf dhtmlxq cbr json judge pgn_stream report_text)
root=..
shared=${XQ_SHARED:-$root/../shared}

seed() {
  local t=$1 dir=corpus/$1
  mkdir -p "$dir"
  case $t in
    fen) sed -n 's/^fen //p' $root/fixtures/perft.txt | awk 'NF{printf "%s", $0 > "'"$dir"'/fen-" NR}' ;;
    move_token) grep -v '^#' $root/fixtures/notation/edge-cases.tsv | cut -f3 | awk 'NF{printf "%s", $0 > "'"$dir"'/tok-" NR}' ;;
    pgn) find $root/fixtures/records -name '*.pgn' -exec cp {} "$dir" \; ;;
    xqf) cp $root/fixtures/records/ours/*.xqf "$dir" ;;
    dhtmlxq) cp $root/fixtures/records/ours/variations.ubb $root/fixtures/records/wukong/44.html "$dir" ;;
    cbr) [ -d "$shared/data/cchess-samples" ] && cp "$shared"/data/cchess-samples/*.cbr "$shared"/data/cchess-samples/*.CBL "$dir" || true ;;
    json) cp $root/fixtures/records/ours/variations.json "$dir" ;;
    judge) head -c 80 /dev/urandom > "$dir/random" ;;
    # Four bytes choose the piece sizes and the encoding, then the file.
    pgn_stream) for f in $root/fixtures/records/*/*.pgn $root/fixtures/bad/*.pgn; do
        { printf '\007\020\040\000'; cat "$f"; } > "$dir/$(basename "$f")"; done ;;
    report_text) cp $root/fixtures/records/ours/variations.pgn "$dir"; printf '=1+1\033[2J' > "$dir/seed" ;;
  esac
}

run() {
  local t=$1
  seed "$t"
  # -fork with -ignore_*: a crash is recorded and the run goes on for the whole time.
  # The judge searches for every move (bounded by its node budgets): give it more time per input.
  local timeout=10
  [ "$t" = judge ] && timeout=60
  cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb=2048 -max_len=262144 \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    > "logs/$t.log" 2>&1 && echo "$t: done" || echo "$t: FAILED (see fuzz/logs/$t.log)"
  grep -a -E 'DONE|Done' "logs/$t.log" | tail -1 || true
  ls "artifacts/$t" 2>/dev/null | sed "s/^/  found: /" || true
}

mkdir -p logs
cargo +nightly fuzz build "${targets[@]:0:1}" >/dev/null 2>&1 || true
# Two at a time: the machines have two cores.
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  run "${targets[$i]}" &
  if [ $((i + 1)) -lt ${#targets[@]} ]; then run "${targets[$((i + 1))]}" & fi
  wait
done
