#!/usr/bin/env bash
# gauntlet.sh - play Kestrel against a list of opponents with fastchess.
#
# Each opponent is a separate fastchess match (own PGN and log), so one
# opponent's crash does not hide the others' results.  Run with -h for usage.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)

usage() {
  cat <<EOF
Usage: $(basename "$0") [options] [OPPONENT...] [-- extra fastchess args]

Plays KESTREL against each OPPONENT in turn (one fastchess match each) and
prints, at the end, every match's result block (Elo +/- error, W/D/L) and the
counts of time forfeits / illegal moves / disconnects found in the PGN.

Opponents (default: \$OPPONENTS or "sf2200 glaurung"):
  sfNNNN | stockfishNNNN   Stockfish with UCI_LimitStrength=true UCI_Elo=NNNN
                           (Stockfish 15.1 accepts 1350..2850)
  sf | stockfish           Stockfish at full strength
  toga | toga2             Toga II (OwnBook=false, "Number of Threads"=1)
  glaurung                 Glaurung (Ponder=false)
  ethereal                 Ethereal
  self | kestrel           self-play: a second instance of the KESTREL binary
  NAME=/path/to/engine     any other UCI engine (gets Hash and Threads only)
  Engine paths: \$STOCKFISH \$TOGA2 \$GLAURUNG \$ETHEREAL (default: PATH, /usr/games).

Options (environment variable in brackets):
  -e, --engine PATH      Kestrel binary [KESTREL] (default: $REPO/target/release/kestrel)
  -n, --name NAME        Kestrel's name in the PGN [NAME] (default: Kestrel)
  -g, --games N          games per opponent, rounded up to even [GAMES] (default: 100)
  -t, --tc TC            time control, fastchess/cutechess syntax [TC] (default: 10+0.1)
  -c, --concurrency N    games in parallel [CONCURRENCY] (default: 2)
      --hash MB          Hash for every engine [HASH] (default: 16)
      --threads N        Threads for every engine [THREADS] (default: 1)
  -b, --book FILE        opening book, .epd or .pgn [BOOK]
                         (default: <repo>/../shared/books/8moves_v3.pgn, balanced
                          openings, since the +90..+99 book starts White a pawn up
                          and stretches the gap to another engine;
                          with --chess960: FRC_openings.epd)
      --order ORDER      random | sequential [ORDER] (default: random)
      --plies N          plies to use from a .pgn book [BOOK_PLIES]
      --srand SEED       seed for the random opening order [SRAND]
      --chess960         Chess960 (variant=fischerandom, FRC_openings.epd) [CHESS960=1]
      --timemargin MS    ms an engine may overrun its clock before forfeiting
                         [TIMEMARGIN] (default: fastchess default, i.e. none)
      --adjudicate       resign 3 moves @600cp, draw after move 34 for 8 moves
                         @20cp [ADJUDICATE=1] (default: off, games are played out)
      --recover          restart crashed engines and go on [RECOVER=1]
                         (default: off - a crash ends the match and is reported)
  -o, --pgn FILE         PGN output [PGN]; with several opponents "-OPP" is
                         inserted before .pgn (default: <outdir>/<opp>.pgn)
  -d, --outdir DIR       run directory for PGN/logs/config/binary snapshot [OUTDIR]
                         (default: /tmp/kestrel-gauntlet-YYYYmmdd-HHMMSS)
      --engine-log       also write fastchess's engine I/O log (<outdir>/<opp>.io.log)
      --no-snapshot      run KESTREL in place instead of a copy in the outdir
                         [SNAPSHOT=0] (default: copy, so rebuilds don't disturb runs)
  -v, --verbose          echo every fastchess line (default hides Info/Position/
                         Moves context lines on the console; the log has all)
      --dry-run          print the fastchess commands and exit
  -h, --help             this text
  --                     everything after is passed to fastchess unchanged [FASTCHESS_ARGS]

The match runner is fastchess, from PATH or \$FASTCHESS.

Exit status: 0 ok; 1 usage/setup error or fastchess failed/aborted;
             2 a Kestrel engine lost a game on time, by an illegal move,
               or by disconnecting/stalling/crashing.

Examples:
  $(basename "$0") sf2200 glaurung
  $(basename "$0") -g 200 -t 1+0.01 self
  GAMES=40 TC=5+0.05 $(basename "$0") --chess960 ethereal sf1800
EOF
}

die() { echo "gauntlet.sh: $*" >&2; exit 1; }

need_fastchess() {
  local fc=${FASTCHESS:-}
  if [[ -n $fc ]]; then
    [[ -x $fc ]] || die "FASTCHESS=$fc is not an executable file"
  else
    fc=$(command -v fastchess || true)
  fi
  if [[ -z $fc && $DRY_RUN == 1 ]]; then
    echo "gauntlet.sh: warning: fastchess not found; printing the command anyway" >&2
    fc=fastchess
  fi
  if [[ -z $fc ]]; then
    cat >&2 <<'EOF'
gauntlet.sh: no match runner found (fastchess is not on PATH and FASTCHESS is unset).
Get one of:
  * fastchess (what these scripts drive), built from source:
        git clone https://github.com/Disservin/fastchess
        cd fastchess && make -j"$(nproc)"
        sudo install -m755 fastchess /usr/local/bin/   # or: export FASTCHESS=$PWD/fastchess
  * cutechess-cli: build from https://github.com/cutechess/cutechess (cmake) or
    install your distribution's "cutechess" package.  Its command line is close
    to fastchess's; run this script with --dry-run and adapt the printed command.
EOF
    exit 1
  fi
  FC=$fc
}

find_engine() { # find_engine VAR_VALUE NAME -> path
  local given=$1 name=$2 p
  if [[ -n $given ]]; then
    printf '%s\n' "$given"
    return
  fi
  p=$(command -v "$name" || true)
  [[ -z $p && -x /usr/games/$name ]] && p=/usr/games/$name
  printf '%s\n' "$p"
}

# ---- defaults, environment overrides --------------------------------------
KESTREL=${KESTREL:-$REPO/target/release/kestrel}
NAME=${NAME:-Kestrel}
GAMES=${GAMES:-100}
TC=${TC:-10+0.1}
CONCURRENCY=${CONCURRENCY:-2}
HASH=${HASH:-16}
THREADS=${THREADS:-1}
BOOKS_DIR=${BOOKS_DIR:-$REPO/../shared/books}
BOOK=${BOOK:-}
ORDER=${ORDER:-random}
BOOK_PLIES=${BOOK_PLIES:-}
SRAND=${SRAND:-}
CHESS960=${CHESS960:-0}
TIMEMARGIN=${TIMEMARGIN:-}
ADJUDICATE=${ADJUDICATE:-0}
RECOVER=${RECOVER:-0}
PGN=${PGN:-}
OUTDIR=${OUTDIR:-}
ENGINE_LOG=${ENGINE_LOG:-0}
SNAPSHOT=${SNAPSHOT:-1}
VERBOSE=${VERBOSE:-0}
DRY_RUN=0
OPPONENTS_ENV=${OPPONENTS:-}
read -r -a EXTRA <<<"${FASTCHESS_ARGS:-}"
OPPS=()

# ---- command line -----------------------------------------------------------
needarg() { [[ $# -ge 2 && -n $2 ]] || die "option $1 needs an argument (see -h)"; }
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    -e|--engine) needarg "$@"; KESTREL=$2; shift 2 ;;
    -n|--name) needarg "$@"; NAME=$2; shift 2 ;;
    -g|--games) needarg "$@"; GAMES=$2; shift 2 ;;
    -t|--tc) needarg "$@"; TC=$2; shift 2 ;;
    -c|--concurrency) needarg "$@"; CONCURRENCY=$2; shift 2 ;;
    --hash) needarg "$@"; HASH=$2; shift 2 ;;
    --threads) needarg "$@"; THREADS=$2; shift 2 ;;
    -b|--book) needarg "$@"; BOOK=$2; shift 2 ;;
    --order) needarg "$@"; ORDER=$2; shift 2 ;;
    --plies) needarg "$@"; BOOK_PLIES=$2; shift 2 ;;
    --srand) needarg "$@"; SRAND=$2; shift 2 ;;
    --chess960|--frc) CHESS960=1; shift ;;
    --timemargin) needarg "$@"; TIMEMARGIN=$2; shift 2 ;;
    --adjudicate) ADJUDICATE=1; shift ;;
    --no-adjudicate) ADJUDICATE=0; shift ;;
    --recover) RECOVER=1; shift ;;
    -o|--pgn) needarg "$@"; PGN=$2; shift 2 ;;
    -d|--outdir) needarg "$@"; OUTDIR=$2; shift 2 ;;
    --engine-log) ENGINE_LOG=1; shift ;;
    --no-snapshot) SNAPSHOT=0; shift ;;
    -v|--verbose) VERBOSE=1; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    --) shift; EXTRA+=("$@"); break ;;
    -*) die "unknown option $1 (see -h)" ;;
    *) OPPS+=("$1"); shift ;;
  esac
done
if [[ ${#OPPS[@]} -eq 0 ]]; then
  read -r -a OPPS <<<"${OPPONENTS_ENV:-sf2200 glaurung}"
fi

# ---- validation -------------------------------------------------------------
isint() { [[ $1 =~ ^[0-9]+$ ]]; }
if ! isint "$GAMES" || [[ $GAMES -lt 1 ]]; then die "--games must be a positive integer"; fi
if ! isint "$CONCURRENCY" || [[ $CONCURRENCY -lt 1 ]]; then die "--concurrency must be a positive integer"; fi
isint "$HASH" || die "--hash must be an integer (MB)"
isint "$THREADS" || die "--threads must be an integer"
[[ $ORDER == random || $ORDER == sequential ]] || die "--order must be random or sequential"
[[ -z $TIMEMARGIN ]] || isint "$TIMEMARGIN" || die "--timemargin must be an integer (ms)"
ROUNDS=$(( (GAMES + 1) / 2 ))

[[ -x $KESTREL ]] || die "Kestrel binary '$KESTREL' not found or not executable (cargo build --release, or -e PATH)"
KESTREL=$(realpath -s "$KESTREL")

if [[ -z $BOOK ]]; then
  if [[ $CHESS960 == 1 ]]; then BOOK=$BOOKS_DIR/FRC_openings.epd; else BOOK=$BOOKS_DIR/8moves_v3.pgn; fi
fi
[[ -f $BOOK ]] || die "opening book '$BOOK' not found (set BOOK or BOOKS_DIR)"
BOOK=$(realpath "$BOOK")
case $BOOK in
  *.epd|*.EPD) BOOK_FORMAT=epd ;;
  *.pgn|*.PGN) BOOK_FORMAT=pgn ;;
  *) die "cannot tell the format of book '$BOOK' (want .epd or .pgn)" ;;
esac

need_fastchess

STAMP=$(date +%Y%m%d-%H%M%S)
OUTDIR=${OUTDIR:-/tmp/kestrel-gauntlet-$STAMP}
if [[ $DRY_RUN == 0 ]]; then
  mkdir -p "$OUTDIR"
fi
OUTDIR=$(realpath -m "$OUTDIR")

if [[ $SNAPSHOT == 1 && $DRY_RUN == 0 ]]; then
  cp "$KESTREL" "$OUTDIR/kestrel"
  KESTREL_RUN=$OUTDIR/kestrel
else
  KESTREL_RUN=$KESTREL
fi

# ---- opponents --------------------------------------------------------------
# opponent_args SPEC -> sets OPP_TAG, OPP_ARGS (fastchess -engine ... words)
opponent_args() {
  local spec=$1 low path elo
  low=${spec,,}
  OPP_ARGS=()
  case $low in
    sf|stockfish|sf[0-9]*|stockfish[0-9]*|sf:[0-9]*|stockfish:[0-9]*)
      path=$(find_engine "${STOCKFISH:-}" stockfish)
      [[ -n $path ]] || die "stockfish not found (apt-get install stockfish, or STOCKFISH=/path)"
      elo=${low##*[a-z:]}
      if [[ -n $elo ]]; then
        isint "$elo" || die "bad Stockfish spec '$spec' (want sfNNNN)"
        if (( elo < 1350 || elo > 2850 )); then
          echo "gauntlet.sh: warning: UCI_Elo=$elo is outside Stockfish 15.1's range 1350..2850" >&2
        fi
        OPP_TAG=sf$elo
        OPP_ARGS=(-engine "cmd=$path" "name=$OPP_TAG" option.UCI_LimitStrength=true "option.UCI_Elo=$elo"
                  "option.Hash=$HASH" "option.Threads=$THREADS")
      else
        OPP_TAG=stockfish
        OPP_ARGS=(-engine "cmd=$path" "name=$OPP_TAG" "option.Hash=$HASH" "option.Threads=$THREADS")
      fi ;;
    toga|toga2)
      path=$(find_engine "${TOGA2:-}" toga2)
      [[ -n $path ]] || die "toga2 not found (apt-get install toga2, or TOGA2=/path)"
      [[ $CHESS960 == 1 ]] && echo "gauntlet.sh: warning: Toga II has no UCI_Chess960 option" >&2
      OPP_TAG=toga2
      OPP_ARGS=(-engine "cmd=$path" "name=$OPP_TAG" "option.Hash=$HASH" "option.Number of Threads=$THREADS"
                option.OwnBook=false) ;;
    glaurung)
      path=$(find_engine "${GLAURUNG:-}" glaurung)
      [[ -n $path ]] || die "glaurung not found (apt-get install glaurung, or GLAURUNG=/path)"
      OPP_TAG=glaurung
      OPP_ARGS=(-engine "cmd=$path" "name=$OPP_TAG" "option.Hash=$HASH" "option.Threads=$THREADS"
                option.Ponder=false) ;;
    ethereal|ethereal-chess)
      path=$(find_engine "${ETHEREAL:-}" ethereal-chess)
      [[ -n $path ]] || path=$(find_engine "" ethereal)
      [[ -n $path ]] || die "ethereal not found (apt-get install ethereal-chess, or ETHEREAL=/path)"
      OPP_TAG=ethereal
      OPP_ARGS=(-engine "cmd=$path" "name=$OPP_TAG" "option.Hash=$HASH" "option.Threads=$THREADS") ;;
    self|kestrel)
      OPP_TAG=self
      OPP_ARGS=(-engine "cmd=$KESTREL_RUN" "name=$NAME-2" "option.Hash=$HASH" "option.Threads=$THREADS") ;;
    *=*)
      OPP_TAG=${spec%%=*}
      path=${spec#*=}
      [[ -x $path ]] || die "engine '$path' for opponent '$OPP_TAG' is not executable"
      OPP_ARGS=(-engine "cmd=$(realpath -s "$path")" "name=$OPP_TAG" "option.Hash=$HASH" "option.Threads=$THREADS") ;;
    */*)
      [[ -x $spec ]] || die "engine '$spec' is not executable"
      OPP_TAG=$(basename "$spec")
      OPP_ARGS=(-engine "cmd=$(realpath -s "$spec")" "name=$OPP_TAG" "option.Hash=$HASH" "option.Threads=$THREADS") ;;
    *) die "unknown opponent '$spec' (see -h)" ;;
  esac
  [[ $OPP_TAG != "$NAME" ]] || die "opponent name '$OPP_TAG' equals Kestrel's name"
}

# check every opponent before the first game is played
for spec in "${OPPS[@]}"; do opponent_args "$spec"; done

# ---- reporting: pgn_report, log_report, results_block, loadavg, busy_note ----
# shellcheck source=uci-scripts/match-lib.sh
source "$SCRIPT_DIR/match-lib.sh"

# ---- run ----------------------------------------------------------------------
V960=""; ADJ_NOTE=off; REC_NOTE=off
if [[ $CHESS960 == 1 ]]; then V960=", chess960 (variant fischerandom)"; fi
if [[ $ADJUDICATE == 1 ]]; then ADJ_NOTE="on (resign 3@600cp, draw 34/8@20cp)"; fi
if [[ $RECOVER == 1 ]]; then REC_NOTE=on; fi
COMMON=(-each "tc=$TC" -rounds "$ROUNDS" -repeat -concurrency "$CONCURRENCY"
        -openings "file=$BOOK" "format=$BOOK_FORMAT" "order=$ORDER")
[[ -n $BOOK_PLIES ]] && COMMON+=("plies=$BOOK_PLIES")
[[ -n $SRAND ]] && COMMON+=(-srand "$SRAND")
[[ -n $TIMEMARGIN ]] && COMMON+=(-each "timemargin=$TIMEMARGIN")
[[ $CHESS960 == 1 ]] && COMMON+=(-variant fischerandom)
[[ $ADJUDICATE == 1 ]] && COMMON+=(-resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20)
[[ $RECOVER == 1 ]] && COMMON+=(-recover)

echo "== Kestrel gauntlet $(date '+%F %T')"
echo "   kestrel:     $KESTREL (md5 $(md5sum "$KESTREL" | cut -d' ' -f1))"
[[ $KESTREL_RUN != "$KESTREL" ]] && echo "   running copy: $KESTREL_RUN"
echo "   opponents:   ${OPPS[*]}"
echo "   games/opp:   $((ROUNDS * 2)) ($ROUNDS openings x both colours), tc $TC, concurrency $CONCURRENCY, Hash $HASH, Threads $THREADS"
echo "   book:        $BOOK ($BOOK_FORMAT, $ORDER)$V960"
echo "   adjudication: $ADJ_NOTE, recover: $REC_NOTE"
echo "   fastchess:   $FC ($("$FC" -version 2>/dev/null | head -n1 || true))"
echo "   outdir:      $OUTDIR"
NCPU=$(nproc 2>/dev/null || echo '?')
echo "   machine:     $NCPU CPUs, load average $(loadavg)"

NL=$'\n'
STATUS=0
BAD_TOTAL=0
SUMMARY=""
for spec in "${OPPS[@]}"; do
  opponent_args "$spec"
  if [[ -n $PGN ]]; then
    if [[ ${#OPPS[@]} -gt 1 ]]; then pgn=${PGN%.pgn}-$OPP_TAG.pgn; else pgn=$PGN; fi
    pgn=$(realpath -m "$pgn")
  else
    pgn=$OUTDIR/$OPP_TAG.pgn
  fi
  log=$OUTDIR/$OPP_TAG.log
  cmd=("$FC" -engine "cmd=$KESTREL_RUN" "name=$NAME" "option.Hash=$HASH" "option.Threads=$THREADS"
       "${OPP_ARGS[@]}" "${COMMON[@]}"
       -pgnout "file=$pgn" append=false timeleft=true -event "Kestrel gauntlet vs $OPP_TAG")
  [[ $ENGINE_LOG == 1 ]] && cmd+=(-log "file=$OUTDIR/$OPP_TAG.io.log" level=info engine=true append=false)
  cmd+=("${EXTRA[@]}")
  echo
  echo "== $NAME vs $OPP_TAG: $((ROUNDS * 2)) games, tc $TC"
  printf '   command:'; printf ' %q' "${cmd[@]}"; echo
  [[ $DRY_RUN == 1 ]] && continue
  mkdir -p "$(dirname "$pgn")"
  echo "   pgn: $pgn"
  echo "   log: $log"
  load_start=$(loadavg)
  busy_note "$load_start" "$load_start"
  # Only fastchess's own exit status matters (grep exits 1 if it printed nothing).
  set +e
  if [[ $VERBOSE == 1 ]]; then
    (cd "$OUTDIR" && exec "${cmd[@]}") 2>&1 | tee "$log"
  else
    (cd "$OUTDIR" && exec "${cmd[@]}") 2>&1 | tee "$log" | grep --line-buffered -vE '^(Info|Position|Moves);'
  fi
  rc=${PIPESTATUS[0]}
  set -e
  load_end=$(loadavg)
  aborted=0
  if grep -qE 'no recover option set|Tournament was interrupted' "$log" || ! grep -q '^Finished match' "$log"; then
    aborted=1
  fi
  rep=$(pgn_report "$pgn" "$NAME"; log_report "$log" "$NAME")
  # the log also sees a game lost to a crash, which never reaches the PGN
  bad=$(sed -n 's/^LOG_BAD_FOR_TEST=//p' <<<"$rep")
  BAD_TOTAL=$((BAD_TOTAL + ${bad:-0}))
  block=$(results_block "$log")
  SUMMARY+=$'\n'"## $NAME vs $OPP_TAG  (tc $TC, $((ROUNDS * 2)) games scheduled, book $(basename "$BOOK") $ORDER$V960)"$'\n'
  SUMMARY+="${block:-  (no result block in $log)}"$'\n'
  SUMMARY+=$(grep -vE '^(LOG_)?BAD_FOR_TEST=' <<<"$rep")$'\n'
  SUMMARY+="  load average at start $load_start, at end $load_end ($NCPU CPUs)"$'\n'
  note=$(busy_note "$load_start" "$load_end")
  if [[ -n $note ]]; then SUMMARY+=$note$NL; fi
  SUMMARY+="  pgn: $pgn"$'\n'"  log: $log"$'\n'
  if [[ $aborted == 1 || $rc -ne 0 ]]; then
    SUMMARY+="  !! match did not finish normally (fastchess exit $rc)"$'\n'
    STATUS=1
  fi
done
[[ $DRY_RUN == 1 ]] && exit 0

echo
echo "=================================== SUMMARY ==================================="
printf '%s' "$SUMMARY"
echo "==============================================================================="
echo "$NAME games lost on time / by illegal move / by disconnect-stall-crash: $BAD_TOTAL"
if [[ $STATUS -ne 0 ]]; then exit "$STATUS"; fi
if [[ $BAD_TOTAL -gt 0 ]]; then exit 2; fi
exit 0
