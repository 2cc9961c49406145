#!/usr/bin/env bash
# sprt.sh - SPRT test of a NEW Kestrel binary against a BASE binary with fastchess.
# Run with -h for usage.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/.." && pwd)

usage() {
  cat <<EOF
Usage: $(basename "$0") [options] [NEW [BASE]] [-- extra fastchess args]

Runs an SPRT between two Kestrel binaries until fastchess accepts H0 or H1
(or the rounds cap is hit), then prints the result block (Elo +/- error,
W/D/L, LLR), the verdict, and the counts of time forfeits / illegal moves /
disconnects found in the PGN.

  NEW    binary under test [NEW] (default: $REPO/target/release/kestrel)
  BASE   reference binary [BASE] (required: argument or environment)
Both are copied into the run directory first, so rebuilding while the test
runs does not change what is being tested (--no-snapshot to disable).

Options (environment variable in brackets):
      --elo0 E           H0 bound [ELO0] (default: 0)
      --elo1 E           H1 bound [ELO1] (default: 5)
      --alpha A          false-positive rate [ALPHA] (default: 0.05)
      --beta B           false-negative rate [BETA] (default: 0.05)
      --model M          normalized | logistic | bayesian [MODEL]
                         (default: fastchess's default, normalized = nElo bounds)
  -r, --rounds N         cap on rounds (2 games each) [ROUNDS] (default: 10000)
  -t, --tc TC            time control [TC] (default: 8+0.08)
  -c, --concurrency N    games in parallel [CONCURRENCY] (default: 2)
      --hash MB          Hash for both engines [HASH] (default: 16)
      --threads N        Threads for both engines [THREADS] (default: 1)
      --new-name NAME    [NEW_NAME] (default: Kestrel-new)
      --base-name NAME   [BASE_NAME] (default: Kestrel-base)
  -b, --book FILE        opening book, .epd or .pgn [BOOK]
                         (default: <repo>/../shared/books/8mvs_+90_+99.epd,
                          with --chess960: FRC_openings.epd)
      --order ORDER      random | sequential [ORDER] (default: random)
      --plies N          plies to use from a .pgn book [BOOK_PLIES]
      --srand SEED       seed for the random opening order [SRAND]
      --chess960         Chess960 (variant=fischerandom, FRC_openings.epd) [CHESS960=1]
      --timemargin MS    ms an engine may overrun its clock before forfeiting
                         [TIMEMARGIN] (default: fastchess default, i.e. none)
      --no-adjudicate    play every game out [ADJUDICATE=0] (default: on -
                         resign 3 moves @600cp, draw after move 34 for 8 moves @20cp)
      --recover          restart crashed engines and go on [RECOVER=1]
                         (default: off - a crash ends the test and is reported)
  -o, --pgn FILE         PGN output [PGN] (default: <outdir>/sprt.pgn)
  -d, --outdir DIR       run directory for PGN/log/config/binary copies [OUTDIR]
                         (default: /tmp/kestrel-sprt-YYYYmmdd-HHMMSS)
      --engine-log       also write fastchess's engine I/O log (<outdir>/sprt.io.log)
      --no-snapshot      run NEW and BASE in place [SNAPSHOT=0]
  -v, --verbose          echo every fastchess line (default hides Info/Position/
                         Moves context lines on the console; the log has all)
      --dry-run          print the fastchess command and exit
  -h, --help             this text
  --                     everything after is passed to fastchess unchanged [FASTCHESS_ARGS]

The match runner is fastchess, from PATH or \$FASTCHESS.

Exit status: 0 the test ran to a verdict or the rounds cap (see the printed
             verdict); 1 usage/setup error or fastchess failed/aborted (e.g. an
             engine crashed); 2 an engine lost a game on time, by an illegal
             move, or by disconnecting/stalling.

Examples:
  $(basename "$0") target/release/kestrel /tmp/kestrel-base
  BASE=/tmp/kestrel-base $(basename "$0") --elo0 -5 --elo1 0     # non-regression
  $(basename "$0") --chess960 -t 10+0.1 new-kestrel old-kestrel
EOF
}

die() { echo "sprt.sh: $*" >&2; exit 1; }

need_fastchess() {
  local fc=${FASTCHESS:-}
  if [[ -n $fc ]]; then
    [[ -x $fc ]] || die "FASTCHESS=$fc is not an executable file"
  else
    fc=$(command -v fastchess || true)
  fi
  if [[ -z $fc && $DRY_RUN == 1 ]]; then
    echo "sprt.sh: warning: fastchess not found; printing the command anyway" >&2
    fc=fastchess
  fi
  if [[ -z $fc ]]; then
    cat >&2 <<'EOF'
sprt.sh: no match runner found (fastchess is not on PATH and FASTCHESS is unset).
Get one of:
  * fastchess (what these scripts drive), built from source:
        git clone https://github.com/Disservin/fastchess
        cd fastchess && make -j"$(nproc)"
        sudo install -m755 fastchess /usr/local/bin/   # or: export FASTCHESS=$PWD/fastchess
  * cutechess-cli: build from https://github.com/cutechess/cutechess (cmake) or
    install your distribution's "cutechess" package.  Its command line is close
    to fastchess's (it also takes -sprt elo0=.. elo1=.. alpha=.. beta=..); run
    this script with --dry-run and adapt the printed command.
EOF
    exit 1
  fi
  FC=$fc
}

# ---- defaults, environment overrides --------------------------------------
NEW=${NEW:-}
BASE=${BASE:-}
NEW_NAME=${NEW_NAME:-Kestrel-new}
BASE_NAME=${BASE_NAME:-Kestrel-base}
ELO0=${ELO0:-0}
ELO1=${ELO1:-5}
ALPHA=${ALPHA:-0.05}
BETA=${BETA:-0.05}
MODEL=${MODEL:-}
ROUNDS=${ROUNDS:-10000}
TC=${TC:-8+0.08}
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
ADJUDICATE=${ADJUDICATE:-1}
RECOVER=${RECOVER:-0}
PGN=${PGN:-}
OUTDIR=${OUTDIR:-}
ENGINE_LOG=${ENGINE_LOG:-0}
SNAPSHOT=${SNAPSHOT:-1}
VERBOSE=${VERBOSE:-0}
DRY_RUN=0
read -r -a EXTRA <<<"${FASTCHESS_ARGS:-}"
POS=()

# ---- command line -----------------------------------------------------------
needarg() { [[ $# -ge 2 && -n $2 ]] || die "option $1 needs an argument (see -h)"; }
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --elo0) needarg "$@"; ELO0=$2; shift 2 ;;
    --elo1) needarg "$@"; ELO1=$2; shift 2 ;;
    --alpha) needarg "$@"; ALPHA=$2; shift 2 ;;
    --beta) needarg "$@"; BETA=$2; shift 2 ;;
    --model) needarg "$@"; MODEL=$2; shift 2 ;;
    -r|--rounds) needarg "$@"; ROUNDS=$2; shift 2 ;;
    -t|--tc) needarg "$@"; TC=$2; shift 2 ;;
    -c|--concurrency) needarg "$@"; CONCURRENCY=$2; shift 2 ;;
    --hash) needarg "$@"; HASH=$2; shift 2 ;;
    --threads) needarg "$@"; THREADS=$2; shift 2 ;;
    --new-name) needarg "$@"; NEW_NAME=$2; shift 2 ;;
    --base-name) needarg "$@"; BASE_NAME=$2; shift 2 ;;
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
    *) POS+=("$1"); shift ;;
  esac
done
[[ ${#POS[@]} -le 2 ]] || die "too many arguments: ${POS[*]} (want NEW [BASE])"
[[ ${#POS[@]} -ge 1 ]] && NEW=${POS[0]}
[[ ${#POS[@]} -ge 2 ]] && BASE=${POS[1]}
NEW=${NEW:-$REPO/target/release/kestrel}
[[ -n $BASE ]] || die "no BASE binary: give it as the second argument or set BASE=/path (see -h)"

# ---- validation -------------------------------------------------------------
isint() { [[ $1 =~ ^[0-9]+$ ]]; }
isnum() { [[ $1 =~ ^-?[0-9]+([.][0-9]+)?$ ]]; }
if ! isint "$ROUNDS" || [[ $ROUNDS -lt 1 ]]; then die "--rounds must be a positive integer"; fi
if ! isint "$CONCURRENCY" || [[ $CONCURRENCY -lt 1 ]]; then die "--concurrency must be a positive integer"; fi
isint "$HASH" || die "--hash must be an integer (MB)"
isint "$THREADS" || die "--threads must be an integer"
for v in "$ELO0" "$ELO1" "$ALPHA" "$BETA"; do isnum "$v" || die "SPRT parameter '$v' is not a number"; done
awk -v a="$ELO0" -v b="$ELO1" 'BEGIN{exit !(a < b)}' || die "elo0 ($ELO0) must be less than elo1 ($ELO1)"
[[ -z $MODEL || $MODEL =~ ^(normalized|logistic|bayesian)$ ]] || die "--model must be normalized, logistic or bayesian"
[[ $ORDER == random || $ORDER == sequential ]] || die "--order must be random or sequential"
[[ -z $TIMEMARGIN ]] || isint "$TIMEMARGIN" || die "--timemargin must be an integer (ms)"
[[ $NEW_NAME != "$BASE_NAME" ]] || die "NEW and BASE need different names"

for b in "$NEW" "$BASE"; do
  [[ -x $b ]] || die "engine binary '$b' not found or not executable"
done
NEW=$(realpath -s "$NEW")
BASE=$(realpath -s "$BASE")
NEW_MD5=$(md5sum "$NEW" | cut -d' ' -f1)
BASE_MD5=$(md5sum "$BASE" | cut -d' ' -f1)
[[ $NEW_MD5 != "$BASE_MD5" ]] || echo "sprt.sh: warning: NEW and BASE are identical binaries (md5 $NEW_MD5); expect H0" >&2

if [[ -z $BOOK ]]; then
  if [[ $CHESS960 == 1 ]]; then BOOK=$BOOKS_DIR/FRC_openings.epd; else BOOK=$BOOKS_DIR/8mvs_+90_+99.epd; fi
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
OUTDIR=${OUTDIR:-/tmp/kestrel-sprt-$STAMP}
if [[ $DRY_RUN == 0 ]]; then
  mkdir -p "$OUTDIR"
fi
OUTDIR=$(realpath -m "$OUTDIR")
if [[ $SNAPSHOT == 1 && $DRY_RUN == 0 ]]; then
  cp "$NEW" "$OUTDIR/kestrel-new"
  cp "$BASE" "$OUTDIR/kestrel-base"
  NEW_RUN=$OUTDIR/kestrel-new
  BASE_RUN=$OUTDIR/kestrel-base
else
  NEW_RUN=$NEW
  BASE_RUN=$BASE
fi
PGN=$(realpath -m "${PGN:-$OUTDIR/sprt.pgn}")
LOG=$OUTDIR/sprt.log

# ---- reporting: pgn_report, log_report, results_block, loadavg, busy_note ----
# shellcheck source=uci-scripts/match-lib.sh
source "$SCRIPT_DIR/match-lib.sh"

# ---- run ----------------------------------------------------------------------
V960=""; ADJ_NOTE=off; REC_NOTE=off
if [[ $CHESS960 == 1 ]]; then V960=", chess960 (variant fischerandom)"; fi
if [[ $ADJUDICATE == 1 ]]; then ADJ_NOTE="on (resign 3@600cp, draw 34/8@20cp)"; fi
if [[ $RECOVER == 1 ]]; then REC_NOTE=on; fi
SPRT=(-sprt "elo0=$ELO0" "elo1=$ELO1" "alpha=$ALPHA" "beta=$BETA")
[[ -n $MODEL ]] && SPRT+=("model=$MODEL")
cmd=("$FC"
     -engine "cmd=$NEW_RUN" "name=$NEW_NAME"
     -engine "cmd=$BASE_RUN" "name=$BASE_NAME"
     -each "tc=$TC" "option.Hash=$HASH" "option.Threads=$THREADS"
     -rounds "$ROUNDS" -repeat -concurrency "$CONCURRENCY"
     -openings "file=$BOOK" "format=$BOOK_FORMAT" "order=$ORDER")
[[ -n $BOOK_PLIES ]] && cmd+=("plies=$BOOK_PLIES")
[[ -n $SRAND ]] && cmd+=(-srand "$SRAND")
[[ -n $TIMEMARGIN ]] && cmd+=(-each "timemargin=$TIMEMARGIN")
[[ $CHESS960 == 1 ]] && cmd+=(-variant fischerandom)
[[ $ADJUDICATE == 1 ]] && cmd+=(-resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20)
[[ $RECOVER == 1 ]] && cmd+=(-recover)
cmd+=("${SPRT[@]}" -pgnout "file=$PGN" append=false timeleft=true -event "Kestrel SPRT $NEW_NAME vs $BASE_NAME")
[[ $ENGINE_LOG == 1 ]] && cmd+=(-log "file=$OUTDIR/sprt.io.log" level=info engine=true append=false)
cmd+=("${EXTRA[@]}")

SETUP="tc $TC, book $(basename "$BOOK") ($BOOK_FORMAT, $ORDER)$V960, cap $ROUNDS rounds = $((ROUNDS * 2)) games"
echo "== Kestrel SPRT $(date '+%F %T')"
echo "   new:   $NEW_NAME = $NEW (md5 $NEW_MD5)"
echo "   base:  $BASE_NAME = $BASE (md5 $BASE_MD5)"
echo "   sprt:  elo0=$ELO0 elo1=$ELO1 alpha=$ALPHA beta=$BETA model=${MODEL:-default(normalized)}"
echo "   games: $SETUP, concurrency $CONCURRENCY, Hash $HASH, Threads $THREADS"
echo "   adjudication: $ADJ_NOTE, recover: $REC_NOTE"
echo "   fastchess: $FC ($("$FC" -version 2>/dev/null | head -n1 || true))"
NCPU=$(nproc 2>/dev/null || echo '?')
echo "   machine: $NCPU CPUs, load average $(loadavg)"
printf '   command:'; printf ' %q' "${cmd[@]}"; echo
[[ $DRY_RUN == 1 ]] && exit 0
echo "   pgn: $PGN"
echo "   log: $LOG"
mkdir -p "$(dirname "$PGN")"
load_start=$(loadavg)
busy_note "$load_start" "$load_start"

# Only fastchess's own exit status matters (grep exits 1 if it printed nothing).
set +e
if [[ $VERBOSE == 1 ]]; then
  (cd "$OUTDIR" && exec "${cmd[@]}") 2>&1 | tee "$LOG"
else
  (cd "$OUTDIR" && exec "${cmd[@]}") 2>&1 | tee "$LOG" | grep --line-buffered -vE '^(Info|Position|Moves);'
fi
rc=${PIPESTATUS[0]}
set -e
load_end=$(loadavg)

verdict=$(grep -E 'SPRT .*completed|was accepted' "$LOG" | tail -n 2 || true)
aborted=0
if grep -qE 'no recover option set|Tournament was interrupted' "$LOG" || ! grep -q '^Finished match' "$LOG"; then
  aborted=1
fi
rep=$(pgn_report "$PGN" ""; log_report "$LOG" "")
# the log also sees a game lost to a crash, which never reaches the PGN
bad=$(sed -n 's/^LOG_BAD_FOR_TEST=//p' <<<"$rep")

echo
echo "=================================== SUMMARY ==================================="
echo "## $NEW_NAME vs $BASE_NAME  ($SETUP)"
echo "   sprt: elo0=$ELO0 elo1=$ELO1 alpha=$ALPHA beta=$BETA model=${MODEL:-default(normalized)}"
block=$(results_block "$LOG")
echo "${block:-  (no result block in $LOG)}"
if [[ -n $verdict ]]; then
  echo "VERDICT: $verdict"
elif [[ $aborted == 1 || $rc -ne 0 ]]; then
  echo "VERDICT: none - the test was aborted"
else
  echo "VERDICT: inconclusive - rounds cap ($ROUNDS) reached before H0 or H1 was accepted"
fi
grep -vE '^(LOG_)?BAD_FOR_TEST=' <<<"$rep"
echo "  load average at start $load_start, at end $load_end ($NCPU CPUs)"
busy_note "$load_start" "$load_end"
echo "  pgn: $PGN"
echo "  log: $LOG"
echo "==============================================================================="
echo "games lost on time / by illegal move / by disconnect-stall-crash: ${bad:-0}"
if [[ $aborted == 1 || $rc -ne 0 ]]; then
  echo "!! fastchess did not finish normally (exit $rc)"
  exit 1
fi
if [[ ${bad:-0} -gt 0 ]]; then exit 2; fi
exit 0
