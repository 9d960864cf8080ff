#!/usr/bin/env bash
# Search techniques one at a time, each by an SPRT (scripts/matches/chess_sprt.sh, same
# settings and variables), on one build of ply: all of TECHNIQUES start off (PLY_SEARCH_OFF);
# each in turn plays with itself on against itself off, on top of those kept so far, and is
# kept when the test accepts H1. Prints each test's lines, then what was kept and the PLY_SEARCH_OFF that
# turns the others off.
#
#   scripts/matches/chess_sprt_techniques.sh PLY "reverse_futility futility razoring"
#   ALSO_OFF=singular_extension scripts/matches/chess_sprt_techniques.sh PLY "futility"
. "$(dirname "$0")/../lib/preamble.sh"
PLY=$(realpath "$1")
TECHNIQUES=$2
join() { local IFS=,; echo "$*"; }
ALSO_OFF=${ALSO_OFF:-}
off=($TECHNIQUES ${ALSO_OFF//,/ })
kept=()
for t in $TECHNIQUES; do
  rest=()
  for o in "${off[@]}"; do [ "$o" != "$t" ] && rest+=("$o"); done
  echo "== $t (on top of: ${kept[*]:-nothing}; off in both: $(join "${rest[@]}"))"
  result=$(NEW_OFF=$(join "${rest[@]}") OLD_OFF=$(join "${off[@]}") scripts/matches/chess_sprt.sh "$PLY" "$PLY" "$t")
  echo "$result"
  if grep -q "H1 was accepted" <<<"$result"; then
    off=("${rest[@]}")
    kept+=("$t")
  fi
done
echo "kept: ${kept[*]:-none}"
echo "PLY_SEARCH_OFF=$(join "${off[@]}")"
