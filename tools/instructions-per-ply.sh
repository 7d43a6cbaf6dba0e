#!/usr/bin/env bash
# Instructions per replayed ply of `xq validate` on the CCPD sample, all-in (reading, decoding,
# parsing, resolving, replaying, reporting), counted by callgrind on one thread: a figure that
# does not depend on the machine's load, for comparing two builds.
#
#   tools/instructions-per-ply.sh XQ [INPUT]
#
# INPUT is a file or directory (default: the CCPD sample's 3,106 Big5 files; the sample as one
# UTF-8 PGN, as tools/bench-archive.sh makes it in /tmp/xq-bench/one.pgn, is the other input the
# README quotes). The plies are counted from `validate --format jsonl` (251,888 for
# ../shared/data/ccpd-dev).
# Needs valgrind.
set -euo pipefail

xq=${1:?usage: $0 XQ}
here=$(cd "$(dirname "$0")/.." && pwd)
ccpd=${CCPD:-$here/../shared/data/ccpd-dev}
input=${2:-$ccpd/Dataset}
if ! command -v valgrind > /dev/null; then
    echo "$0: needs valgrind (callgrind counts the instructions)" >&2
    exit 2
fi
if [ ! -e "$input" ]; then
    echo "$0: no input at $input: give one, or set CCPD=DIR to the CCPD sample" >&2
    exit 2
fi
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$xq" validate --quiet -j 1 "$input" > /dev/null 2> "$out.log" || true
# (validate exits 1 when a game fails, as two of the sample's do.)
plies=$({ "$xq" validate --quiet --format jsonl "$input" || true; } |
    grep -o '"plies":[0-9]*' | awk -F: '{n += $2} END {print n}')
total=$(grep -oP 'Collected : \K[0-9]+' "$out.log")
echo "$total instructions, $((total / plies)) per ply ($plies plies)"
