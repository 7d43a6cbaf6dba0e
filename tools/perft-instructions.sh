#!/usr/bin/env bash
# Instructions of perft over the positions of fixtures/perft.txt, counted by callgrind: a figure
# that does not depend on the machine's load, for comparing two builds' move generators.
#
#   tools/perft-instructions.sh XQ
#
# Each position is run once at the first depth whose count is between 500,000 and 8,000,000
# leaves (nine positions; about 20 s under valgrind), and its count checked. Needs valgrind.
set -euo pipefail

xq=${1:?usage: $0 XQ}
here=$(cd "$(dirname "$0")/.." && pwd)
total=0
while IFS='|' read -r id fen depth nodes; do
    n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$xq" perft --fen "$fen" --depth "$depth" 2>&1 >/dev/null | grep -oP 'Collected : \K[0-9]+')
    got=$("$xq" perft --fen "$fen" --depth "$depth" | grep -oP 'nodes \K[0-9]+')
    if [ "$got" != "$nodes" ]; then
        echo "$id: perft($depth) gave $got, not $nodes" >&2
        exit 1
    fi
    total=$((total + n))
done < <(awk '/^id/ {id = $2} /^fen/ {fen = substr($0, 5)}
              /^perft/ && $3 >= 500000 && $3 <= 8000000 && !seen[id]++ {print id "|" fen "|" $2 "|" $3}' \
              "$here/fixtures/perft.txt")
echo "$total instructions"
