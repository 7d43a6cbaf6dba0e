#!/usr/bin/env bash
# Proof that a change to the arbiter's searches changes no ruling (the speed round of issue 12):
# two `xq` binaries judge every game of a directory with `judge --scan --format json` and every
# rulebook dev case with `judge --format json`, and the outputs are compared byte for byte (the
# report's time stamp left out). Prints each file that differs and a count; exits 1 if any does.
#
#   tools/compare-judge.sh OLD_XQ NEW_XQ [GAMES_DIR] [RULES...]
#
# GAMES_DIR defaults to the CCPD sample of the shared data (../shared/data/ccpd-dev/Dataset,
# CC BY 4.0); RULES to `cxa2020 axf`. Outputs are kept in $COMPARE_DIR (default
# /tmp/xq-compare-judge) for a closer look.
set -uo pipefail

old=${1:?usage: $0 OLD_XQ NEW_XQ [GAMES_DIR] [RULES...]}
new=${2:?usage: $0 OLD_XQ NEW_XQ [GAMES_DIR] [RULES...]}
here=$(cd "$(dirname "$0")/.." && pwd)
games=${3:-$here/../shared/data/ccpd-dev/Dataset}
shift $(($# < 3 ? $# : 3))
rules=("$@")
[ ${#rules[@]} -gt 0 ] || rules=(cxa2020 axf)
out=${COMPARE_DIR:-/tmp/xq-compare-judge}
rm -rf "$out"
mkdir -p "$out/old" "$out/new" "$out/cases"

# The dev cases as move lists (a FEN line, then the moves).
python3 - "$here/fixtures/cases" "$out/cases" <<'EOF'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
for name, rules in [("cxa2020-dev.json", "cxa2020"), ("axf-dev.json", "axf")]:
    for i, case in enumerate(json.load(open(f"{src}/{name}", encoding="utf-8"))):
        with open(f"{dst}/{rules}-{i:03d}.txt", "w", encoding="utf-8") as f:
            f.write(case["fen"] + "\n" + " ".join(case["moves"]) + "\n")
EOF

# judge BIN SIDE RULES KEY ARGS...: one output, the time stamp removed.
judge() {
    local bin=$1 side=$2 key=$3
    shift 3
    "$bin" judge --format json "$@" 2>&1 | sed 's/"made":"[^"]*"//g' >"$out/$side/$key"
}

files=0
differ=0
compare() {
    files=$((files + 1))
    if ! cmp -s "$out/old/$1" "$out/new/$1"; then
        differ=$((differ + 1))
        echo "differs: $2"
    fi
}

for case in "$out"/cases/*.txt; do
    name=$(basename "$case" .txt)
    rule=${name%%-*}
    judge "$old" old "case-$name" --rules "$rule" "$case"
    judge "$new" new "case-$name" --rules "$rule" "$case"
    compare "case-$name" "$case ($rule)"
done

while IFS= read -r -d '' game; do
    for rule in "${rules[@]}"; do
        key=$(printf '%s' "$game" | md5sum | cut -c1-16)-$rule
        judge "$old" old "$key" --scan --rules "$rule" "$game"
        judge "$new" new "$key" --scan --rules "$rule" "$game"
        compare "$key" "$game ($rule)"
    done
done < <(find "$games" -type f -print0 | sort -z)

echo "$files outputs compared, $differ differ"
[ "$differ" -eq 0 ]
