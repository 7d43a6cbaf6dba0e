#!/usr/bin/env bash
# The archive benchmarks of the speed round (issue 16): two `xq` binaries run alternately on the
# same inputs, the median of each quoted.
#
#   tools/bench-archive.sh OLD_XQ NEW_XQ [RUNS]
#
# Inputs, made once in $BENCH_DIR (default /tmp/xq-bench) from the CCPD sample of the shared data
# (../shared/data/ccpd-dev, CC BY 4.0; override with CCPD=DIR):
#   dir/    the sample copied 10 times (about 31,000 Big5 files): `validate --quiet`, warm page
#           cache, then cold (every file's pages dropped with posix_fadvise(DONTNEED) first);
#           and the sample itself (3,106 files) converted to PGN into a fresh directory;
#   big.pgn the sample converted to one UTF-8 PGN and repeated to about 300 MB (about 196,000
#           games): `validate --quiet`, warm, with peak memory;
#   a 430-ply game (CCPD 象甲聯賽/00000090.pgn): `limit --format json` into a pipe, 50 times;
#           and `--version` the same way: the binary's start with the loop's own cost (bash,
#           the pipe, cat), under which that row cannot go.
# Wall-clock seconds: run it on an otherwise idle machine.
set -euo pipefail

old=${1:?usage: $0 OLD_XQ NEW_XQ [RUNS]}
new=${2:?usage: $0 OLD_XQ NEW_XQ [RUNS]}
runs=${3:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
ccpd=${CCPD:-$here/../shared/data/ccpd-dev}
work=${BENCH_DIR:-/tmp/xq-bench}
if [ ! -d "$ccpd/Dataset" ]; then
    echo "$0: the CCPD sample is not at $ccpd (its Dataset directory): set CCPD=DIR" >&2
    exit 2
fi
mkdir -p "$work"

# The inputs are made under another name and renamed when whole: a run stopped half-way leaves
# nothing that a later run would take for made.
if [ ! -d "$work/dir" ]; then
    rm -rf "$work/dir.part"
    for i in $(seq 0 9); do
        mkdir -p "$work/dir.part/c$i"
        cp -r "$ccpd/Dataset/." "$work/dir.part/c$i/"
    done
    mv "$work/dir.part" "$work/dir"
fi
if [ ! -f "$work/big.pgn" ]; then
    rm -rf "$work/conv"
    # (convert exits 1 for the sample's two games that do not replay; they are written all
    # the same.)
    "$new" convert "$ccpd/Dataset" --to pgn -o "$work/conv/" > /dev/null 2>&1 || true
    find "$work/conv" -name '*.pgn' -print0 | sort -z | xargs -0 cat > "$work/one.pgn.part"
    mv "$work/one.pgn.part" "$work/one.pgn"
    for _ in $(seq 1 63); do cat "$work/one.pgn"; done > "$work/big.pgn.part"
    mv "$work/big.pgn.part" "$work/big.pgn"
fi
# Two files are named 00000090.pgn; the 430-ply game is the league one (the other has 40 plies).
long="$ccpd/Dataset/對局/大師對局/以賽事分類/象甲聯賽/00000090.pgn"

drop() {
    python3 - "$1" <<'EOF'
import os, sys
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        fd = os.open(os.path.join(root, name), os.O_RDONLY)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
EOF
}

# seconds (and peak KiB) of one run of "$@"
timed() {
    /usr/bin/time -f "%e %M" "$@" > /dev/null 2> "$work/time.err" || true
    tail -1 "$work/time.err"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# bench NAME PREPARE COMMAND: COMMAND is a shell command in which XQ stands for the binary.
bench() {
    local name=$1 prepare=$2 command=$3
    : > "$work/old.t"
    : > "$work/new.t"
    for _ in $(seq 1 "$runs"); do
        for which in old new; do
            local xq=$old
            [ "$which" = new ] && xq=$new
            $prepare
            timed bash -c "${command//XQ/$xq}" >> "$work/$which.t"
        done
    done
    local o n om nm
    o=$(cut -d' ' -f1 "$work/old.t" | median)
    n=$(cut -d' ' -f1 "$work/new.t" | median)
    om=$(cut -d' ' -f2 "$work/old.t" | median)
    nm=$(cut -d' ' -f2 "$work/new.t" | median)
    printf '%-28s old %7.2f s (%6d MiB)   new %7.2f s (%6d MiB)   x%.2f\n' \
        "$name" "$o" $((om / 1024)) "$n" $((nm / 1024)) "$(echo "$o / $n" | bc -l)"
}

nothing() { :; }
cold() { drop "$work/dir"; }
files=$(find "$work/dir" -type f | wc -l)
echo "directory: $files files; big.pgn: $(du -m "$work/big.pgn" | cut -f1) MB; median of $runs runs"
bench "directory, warm" nothing "XQ validate --quiet $work/dir"
bench "directory, cold" cold "XQ validate --quiet $work/dir"
bench "300 MB PGN, warm" nothing "XQ validate --quiet $work/big.pgn"
bench "limit json x50 (430 plies)" nothing \
    "for i in \$(seq 50); do XQ limit '$long' --format json | cat > /dev/null; done"
# The same loop doing nothing but start the binary: the floor under the row above (the loop
# itself, then loading, relocating, the allocator's start, parsing the arguments), which no work
# in `limit` can lower.
bench "start only (--version) x50" nothing \
    "for i in \$(seq 50); do XQ --version | cat > /dev/null; done"
fresh() { rm -rf "$work/converted"; }
bench "convert sample to PGN dir" fresh \
    "XQ convert '$ccpd/Dataset' --to pgn -o '$work/converted/'"
