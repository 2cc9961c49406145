#!/usr/bin/env bash
# match-lib.sh: result reporting shared by gauntlet.sh and sprt.sh (sourced).
# Reads NCPU from the caller for busy_note.

# ---- reporting ----------------------------------------------------------------
# pgn_report PGN TESTNAME: per-game table of abnormal endings + counts.
# Prints "BAD_FOR_TEST=<n>" as its last line (games TESTNAME* lost abnormally).
pgn_report() {
  local pgn=$1 test=$2
  if [[ ! -s $pgn ]]; then
    echo "  (no PGN at $pgn)"
    echo "BAD_FOR_TEST=0"
    return
  fi
  # grep every line but the name tags (an engine called "illegal..." must not count)
  pgngrep() { grep -vE '^\[(Event|Site|White|Black|EngineWhite[A-Za-z]*|EngineBlack[A-Za-z]*) ' "$pgn" | grep -ci "$1" || true; }
  echo "  PGN grep counts (lines): time forfeit=$(pgngrep 'time forfeit')" \
       "loses on time=$(pgngrep 'loses on time')" \
       "illegal=$(pgngrep 'illegal')" \
       "disconnect=$(pgngrep 'disconnect')" \
       "stall=$(pgngrep 'stall')" \
       "abandoned=$(pgngrep 'abandoned')"
  awk -v test="$test" '
    function tagval(s) { sub(/^\[[A-Za-z]+ "/, "", s); sub(/"\][[:space:]]*$/, "", s); return s }
    function flush(   loser) {
      if (!ingame) return
      ngames++
      if (term == "") term = "(none)"
      terms[term]++
      if (term != "normal" && term != "adjudication") {
        if (res == "1-0") loser = blk
        else if (res == "0-1") loser = wht
        else if (reason ~ /^White/) loser = wht
        else if (reason ~ /^Black/) loser = blk
        else loser = "?"
        bad[loser "|" term]++
        if (test == "" || index(loser, test) == 1) badtest++
        if (++listed <= 30)
          printf "  pgn game #%d (round %s): %s vs %s %s [%s] {%s} -> %s\n", ngames, rnd, wht, blk, res, term, reason, loser
        else if (listed == 31)
          print "  (more abnormal games not listed)"
      }
      ingame = 0
    }
    /^\[Event / { flush(); ingame = 1; wht = blk = res = term = reason = rnd = ""; next }
    /^\[White "/ { wht = tagval($0); next }
    /^\[Black "/ { blk = tagval($0); next }
    /^\[Result "/ { res = tagval($0); next }
    /^\[Round "/ { rnd = tagval($0); next }
    /^\[Termination "/ { term = tagval($0); next }
    /^\[/ { next }
    /(1-0|0-1|1\/2-1\/2|\*)[[:space:]]*$/ {
      line = $0; c = ""
      while (match(line, /\{[^}]*\}/)) { c = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
      n = split(c, parts, ", "); reason = parts[n]
    }
    END {
      flush()
      printf "  games in PGN: %d; terminations:", ngames
      for (t in terms) printf " %s=%d", t, terms[t]
      printf "\n"
      nb = 0
      for (k in bad) { split(k, kk, "|"); printf "  abnormal: %-20s %-14s %d\n", kk[1], kk[2], bad[k]; nb++ }
      if (nb == 0) print "  abnormal endings (time forfeit / illegal move / disconnect / stall): 0"
      printf "BAD_FOR_TEST=%d\n", badtest + 0
    }' "$pgn"
}

# log_report LOG TESTNAME: abnormal game endings as fastchess logged them (this
# also covers a game lost to a crash, which never reaches the PGN), per-player
# timeout/crash tallies, stop messages and warnings.  Last line: LOG_BAD_FOR_TEST=<n>.
log_report() {
  local log=$1 test=$2
  if [[ ! -s $log ]]; then
    echo "  (no log at $log)"
    echo "LOG_BAD_FOR_TEST=0"
    return
  fi
  echo "  log counts (lines): loses on time=$(grep -c 'loses on time' "$log" || true)" \
       "illegal move=$(grep -ci 'illegal move' "$log" || true)" \
       "disconnects=$(grep -c 'disconnects' "$log" || true)" \
       "stalls=$(grep -c 'stalls' "$log" || true)" \
       "crashed=$(grep -cE 'Engine crashed|Crashed: [1-9]' "$log" || true)" \
       "warnings=$(grep -c '^Warning;' "$log" || true)"
  # list the games only when the match was cut short: the PGN table has the rest
  local show=0
  if grep -qE 'no recover option set|Tournament was interrupted' "$log"; then show=1; fi
  awk -v test="$test" -v show="$show" '
    /^Finished game [0-9]+ \(/ {
      line = $0
      if (!match(line, /\{.*\}[[:space:]]*$/)) next
      reason = substr(line, RSTART + 1, RLENGTH - 2); sub(/\}[[:space:]]*$/, "", reason)
      if (reason !~ /loses on time|illegal|disconnect|stall|crash/) next
      hdr = line; sub(/^Finished game [0-9]+ \(/, "", hdr); sub(/\): .*$/, "", hdr)
      n = index(hdr, " vs "); w = substr(hdr, 1, n - 1); b = substr(hdr, n + 4)
      loser = (reason ~ /^White/) ? w : (reason ~ /^Black/) ? b : "?"
      kind = (reason ~ /on time/) ? "time forfeit" : (reason ~ /illegal/) ? "illegal move" : (reason ~ /disconnect/) ? "disconnect" : (reason ~ /stall/) ? "stall" : "crash"
      cnt[loser "|" kind]++
      if (test == "" || index(loser, test) == 1) bad++
      if (show) printf "  log: %s -> %s (%s)\n", line, loser, kind
    }
    END {
      for (k in cnt) { split(k, kk, "|"); printf "  log abnormal: %-20s %-14s %d\n", kk[1], kk[2], cnt[k] }
      printf "LOG_BAD_FOR_TEST=%d\n", bad + 0
    }' "$log"
  if grep -q '^Player: ' "$log"; then
    echo "  fastchess per-player tallies:"
    grep -A2 '^Player: ' "$log" | grep -v '^--' | paste -d' ' - - - | sed 's/^/    /'
  fi
  if grep -qE 'stopping tournament|Tournament was interrupted' "$log"; then
    echo "  !! fastchess stopped the match early:"
    grep -E 'stopping tournament|Tournament was interrupted' "$log" | sed 's/^/    /'
  fi
  if grep -q '^Warning;' "$log"; then
    echo "  warnings by kind (moves elided):"
    grep '^Warning;' "$log" | sed -E 's/[a-h][1-8][a-h][1-8][qrbn]?/<move>/g; s/[0-9]+ms/<n>ms/g' \
      | sort | uniq -c | sort -rn | head -n 12 | sed 's/^/    /'
  fi
}

results_block() { # last "Results of ..." block of a fastchess log
  awk '/^Results of /{buf=""; on=1} on{buf=buf $0 "\n"; if ($0 ~ /^-----/) on=0} END{printf "%s", buf}' "$1"
}


loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'; }
# busy_note LOAD_START LOAD_END: a warning line when the machine was oversubscribed
busy_note() {
  awk -v a="${1%% *}" -v b="${2%% *}" -v n="$NCPU" 'BEGIN {
    if (n ~ /^[0-9]+$/ && (a + 0 > n + 0 || b + 0 > n + 0))
      printf "  !! machine busy (1-min load %s at start, %s at end, on %d CPUs): time forfeits may reflect the load, not the engines\n", a, b, n }'
}
