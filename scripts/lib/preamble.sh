# The shell scripts' shared preamble, sourced first by each of them:
#
#     . "$(dirname "$0")/../lib/preamble.sh"
#
# Strict mode (a failing command, an unset variable or a failing pipe stops the script), the
# repository's root as the working directory (so paths in the scripts and their arguments
# read from there), and the binaries the scripts run, PLY and REF, which a caller may point
# at other builds (PLY=../old/target/release/ply scripts/...).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
PLY=$(realpath -m "${PLY:-target/release/ply}")
REF=$(realpath -m "${REF:-target/release/ply-referee}")

# build_release [CARGO_ARGS..]: a quiet release build, niced (the machine may be shared).
build_release() {
    nice -n 10 cargo build --release --quiet "$@"
}

# usage: prints the comment block after the script's first line (its documentation).
usage() {
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
}
