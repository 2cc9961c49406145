#!/usr/bin/env python3
"""SPSA tuning of Kestrel's search numbers with fastchess.

Needs a build with the tunables as UCI options:

    cargo build --release --features tune
    python3 uci-scripts/spsa.py --engine target/release/kestrel \
        --params rfp_margin,futility_base,lmr_base_pct --iterations 500

Each iteration perturbs every chosen number by +-c_k (a random sign per
number), plays game pairs between the two settings (same opening, both
colours), and moves the numbers towards the side that scored better, the
way fishtest's SPSA does: theta += R_k * c_k * (wins - losses) * sign, with
c_k = c / k^0.101 and R_k = a / (A + k)^0.602 / c_k^2. The state is written
to a JSON file after every iteration, so a stopped run resumes where it
was. The ranges and defaults come from the engine's own `uci` answer.
The tuned values are a proposal: play them against the defaults (sprt.sh)
before writing them into src/search/params.rs.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys

GAMMA = 0.101
ALPHA = 0.602
RESULT_LINE = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")
OPTION_LINE = re.compile(
    r"^option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)$"
)


def engine_spins(engine):
    """The engine's spin options: name -> (default, min, max)."""
    out = subprocess.run(
        [engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30
    ).stdout
    spins = {}
    for line in out.splitlines():
        m = OPTION_LINE.match(line.strip())
        if m:
            spins[m.group(1)] = tuple(int(x) for x in m.groups()[1:])
    return spins


def initial_state(args, spins):
    params = {}
    for name in args.params.split(","):
        name = name.strip()
        if name not in spins:
            sys.exit(f"{name}: not a spin option of {args.engine} (built with --features tune?)")
        default, lo, hi = spins[name]
        c_end = max(1.0, (hi - lo) / args.c_divisor)
        params[name] = {"theta": float(default), "min": lo, "max": hi,
                        "c_end": c_end, "r_end": args.r_end}
    return {"iteration": 0, "games": 0, "wins": 0, "losses": 0, "params": params}


def schedule(p, k, n):
    """c_k and R_k of one number at iteration k of n."""
    big_a = 0.1 * n
    c = p["c_end"] * n**GAMMA
    a = p["r_end"] * p["c_end"] ** 2 * (big_a + n) ** ALPHA
    c_k = c / k**GAMMA
    r_k = a / (big_a + k) ** ALPHA / c_k**2
    return c_k, r_k


def engine_args(engine, name, values):
    args = ["-engine", f"cmd={engine}", f"name={name}"]
    args += [f"option.{k}={v}" for k, v in values.items()]
    return args


def play(args, plus, minus, seed):
    """(wins, losses, draws) of the plus setting against the minus one."""
    cmd = [args.fastchess]
    cmd += engine_args(args.engine, "plus", plus)
    cmd += engine_args(args.engine, "minus", minus)
    cmd += ["-each", f"tc={args.tc}", f"option.Hash={args.hash}", "option.Threads=1"]
    cmd += ["-rounds", str(args.pairs), "-games", "2", "-repeat"]
    cmd += ["-concurrency", str(args.concurrency)]
    fmt = "pgn" if args.book.endswith(".pgn") else "epd"
    cmd += ["-openings", f"file={args.book}", f"format={fmt}", "order=random"]
    cmd += ["-srand", str(seed)]
    # fastchess leaves a config.json in its working directory: keep it
    # beside the state file, not wherever the user stands.
    workdir = os.path.dirname(os.path.abspath(args.state))
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir).stdout
    found = RESULT_LINE.findall(out)
    if not found:
        sys.exit("fastchess printed no result:\n" + out[-2000:])
    games, wins, losses, draws = (int(x) for x in found[-1])
    return wins, losses, draws


def step(args, state):
    k = state["iteration"] + 1
    n = args.iterations
    plus, minus, steps = {}, {}, {}
    for name, p in state["params"].items():
        c_k, r_k = schedule(p, k, n)
        s = random.choice((-1, 1))
        steps[name] = (s, c_k, r_k)
        plus[name] = round(min(p["max"], max(p["min"], p["theta"] + s * c_k)))
        minus[name] = round(min(p["max"], max(p["min"], p["theta"] - s * c_k)))
    wins, losses, draws = play(args, plus, minus, args.seed * 100_000 + k)
    for name, p in state["params"].items():
        s, c_k, r_k = steps[name]
        moved = p["theta"] + r_k * c_k * (wins - losses) * s
        p["theta"] = min(p["max"], max(p["min"], moved))
    state["iteration"] = k
    state["games"] += wins + losses + draws
    state["wins"] += wins
    state["losses"] += losses
    return wins, losses, draws


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True, help="a build with --features tune")
    ap.add_argument("--params", required=True, help="comma-separated option names")
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--book", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "books",
        "8mvs_+90_+99.epd"))
    ap.add_argument("--fastchess", default="fastchess")
    ap.add_argument("--c-divisor", type=float, default=20.0,
                    help="c_end = range / this (the final perturbation)")
    ap.add_argument("--r-end", type=float, default=0.02,
                    help="step scale; fishtest uses 0.002 over far more games")
    ap.add_argument("--state", default="spsa-state.json")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    # fastchess runs beside the state file, so relative paths must not be.
    args.engine = os.path.abspath(args.engine)
    args.book = os.path.abspath(args.book)
    os.makedirs(os.path.dirname(os.path.abspath(args.state)), exist_ok=True)
    random.seed(args.seed)

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        random.seed(args.seed * 7919 + state["iteration"])
    else:
        state = initial_state(args, engine_spins(args.engine))

    while state["iteration"] < args.iterations:
        wins, losses, draws = step(args, state)
        with open(args.state + ".tmp", "w") as f:
            json.dump(state, f, indent=1)
        os.replace(args.state + ".tmp", args.state)
        thetas = " ".join(
            f"{name}={p['theta']:.1f}" for name, p in state["params"].items()
        )
        print(f"iter {state['iteration']} +{wins}={draws}-{losses} "
              f"games {state['games']}: {thetas}", flush=True)

    print("setoption lines for the result:")
    for name, p in state["params"].items():
        print(f"setoption name {name} value {round(p['theta'])}")


if __name__ == "__main__":
    main()
