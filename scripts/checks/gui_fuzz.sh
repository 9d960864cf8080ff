#!/usr/bin/env bash
# Fuzzes ply gui's WebSocket as hostile pages would (tests/gui_fuzz.rs): malformed JSON,
# messages of every shape with extreme values, huge, fragmented, binary and bad frames,
# floods, commands in the wrong order, pages that vanish mid-frame or never read, while a
# well-behaved page plays on and times its answers. It fails if the server exits, the
# well-behaved page waits 10 s or more or gets a wrong answer, or an engine process of a
# hostile page is left behind.
#
#   scripts/checks/gui_fuzz.sh [messages] [seed]      # default: 1000000 1
#
# It prints the pages, messages and frames tried, by kind, and the well-behaved page's
# latencies. Runs niced (the machine is shared), in cargo's test profile (optimised).
. "$(dirname "$0")/../lib/preamble.sh"
messages=${1:-1000000}
seed=${2:-1}
echo "gui fuzz: $messages messages from seed $seed; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
PLY_GUI_FUZZ_MESSAGES=$messages PLY_GUI_FUZZ_SEED=$seed \
    nice -n 10 cargo test --quiet --test gui_fuzz hostile_pages_long_run -- --ignored --nocapture
echo "gui fuzz: done in $(( $(date +%s) - start )) s; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
