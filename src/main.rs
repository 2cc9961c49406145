//! `kestrel`: with no arguments a UCI engine on stdin/stdout; with a
//! subcommand, a tool (bench, perft, epd).

use std::process::ExitCode;
use std::time::Instant;

use kestrel::position::{Position, move_to_uci};
use kestrel::search::{History, Limits};
use kestrel::tools::{bench, epd, perft};
use kestrel::tt::TranspositionTable;
use shakmaty::CastlingMode;

const USAGE: &str = "usage: kestrel                      UCI engine on stdin/stdout
       kestrel bench [DEPTH]        fixed search; last line: N nodes M nps
       kestrel perft DEPTH [FEN]    move path count per root move
       kestrel epd FILE [--movetime MS | --nodes N] [--threads N]  solve an EPD suite (bm/am)
       kestrel datagen --out FILE (--games N | --positions N) [--nodes N] [--threads N] [--seed S] [--book FILE]
       kestrel tune --data FILE [--epochs N] [--k K] [--out src/eval/params.rs]
       kestrel nnue-train --data FILE [--epochs N] [--lr X] [--lambda X] [--pure] [--init NET [--anchor X]] [--factorise] [--out src/eval/kestrel.nnue]";

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("kestrel=warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            kestrel::uci::run_stdio();
            Ok(())
        }
        Some("bench") => run_bench(&args[1..]),
        Some("perft") => run_perft(&args[1..]),
        Some("epd") => run_epd(&args[1..]),
        Some("datagen") => run_datagen(&args[1..]),
        Some("tune") => run_tune(&args[1..]),
        Some("nnue-train") => run_nnue_train(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some("-V" | "--version") => {
            println!("{}", kestrel::ENGINE_NAME);
            Ok(())
        }
        Some(other) => Err(format!("unknown subcommand '{other}'\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kestrel: {e}");
            ExitCode::from(2)
        }
    }
}

fn parse_arg<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} must be a number, got '{text}'"))
}

fn run_bench(args: &[String]) -> Result<(), String> {
    let depth = match args.first() {
        Some(d) => parse_arg(d, "bench depth")?,
        None => bench::DEFAULT_DEPTH,
    };
    let result = bench::run(depth, 16, |i, fen, nodes| {
        println!("position {:>2} {:>10} nodes  {fen}", i + 1, nodes);
    });
    println!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}

fn run_perft(args: &[String]) -> Result<(), String> {
    let depth: u32 = parse_arg(args.first().ok_or("perft needs a depth")?, "perft depth")?;
    let pos = if args.len() > 1 {
        Position::from_fen(&args[1..].join(" ")).map_err(|e| e.to_string())?
    } else {
        Position::startpos()
    };
    let start = Instant::now();
    let divide = perft::divide(pos.board(), depth);
    let elapsed = start.elapsed();
    for (m, n) in &divide {
        println!("{}: {n}", move_to_uci(*m, CastlingMode::Chess960));
    }
    let total = perft::total(&divide, depth);
    println!();
    println!("Nodes searched: {total}");
    let nps = total as u128 * 1_000_000 / elapsed.as_micros().max(1);
    eprintln!("time {} ms, {nps} nodes/s", elapsed.as_millis());
    Ok(())
}

fn run_epd(args: &[String]) -> Result<(), String> {
    let file = args.first().ok_or("epd needs a file")?;
    let mut limits = Limits {
        movetime: Some(1000),
        ..Limits::default()
    };
    let mut threads = 1;
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--movetime" => limits.movetime = Some(parse_arg(value, flag)?),
            "--threads" => threads = parse_arg::<usize>(value, flag)?.clamp(1, 256),
            // A node budget instead of a clock: the same answers on a
            // loaded machine as on a quiet one.
            "--nodes" => {
                limits.nodes = Some(parse_arg(value, flag)?);
                limits.movetime = None;
            }
            other => return Err(format!("unknown epd option '{other}'")),
        }
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let (cases, errors) = epd::parse_suite(&text);
    for e in &errors {
        eprintln!("kestrel: skipped {e}");
    }
    let mut tt = TranspositionTable::new(64).map_err(|e| e.to_string())?;
    let mut solved = 0;
    for case in &cases {
        tt.clear();
        let mut histories: Vec<History> = (0..threads).map(|_| History::default()).collect();
        let (ok, best) = epd::solve_with(case, &limits, &tt, &mut histories);
        solved += usize::from(ok);
        let shown = best.map_or("0000".to_string(), |m| {
            move_to_uci(m, CastlingMode::Standard)
        });
        println!(
            "{:<12} {} {}",
            case.id,
            if ok { "ok  " } else { "FAIL" },
            shown
        );
    }
    println!("solved {solved}/{}", cases.len());
    Ok(())
}

fn run_datagen(args: &[String]) -> Result<(), String> {
    let mut cfg = kestrel::tools::datagen::Config::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--out" => cfg.out = value()?.clone(),
            "--book" => cfg.book = value()?.clone(),
            "--games" => cfg.games = Some(parse_arg(value()?, flag)?),
            "--positions" => cfg.positions = Some(parse_arg(value()?, flag)?),
            "--nodes" => cfg.nodes = parse_arg(value()?, flag)?,
            "--threads" => cfg.threads = parse_arg(value()?, flag)?,
            "--seed" => cfg.seed = parse_arg(value()?, flag)?,
            "--random-plies" => cfg.random_plies = parse_arg(value()?, flag)?,
            "--hash" => cfg.hash_mb = parse_arg(value()?, flag)?,
            other => return Err(format!("unknown datagen option '{other}'")),
        }
    }
    kestrel::tools::datagen::run(&cfg)
}

fn run_tune(args: &[String]) -> Result<(), String> {
    let mut cfg = kestrel::tools::tune::Config::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--data" => cfg.data = value()?.clone(),
            "--out" => cfg.out = value()?.clone(),
            "--epochs" => cfg.epochs = parse_arg(value()?, flag)?,
            "--lr" => cfg.lr = parse_arg(value()?, flag)?,
            "--lambda" => cfg.lambda = parse_arg(value()?, flag)?,
            "--threads" => cfg.threads = parse_arg(value()?, flag)?,
            "--k" => cfg.k = Some(parse_arg(value()?, flag)?),
            other => return Err(format!("unknown tune option '{other}'")),
        }
    }
    kestrel::tools::tune::run(&cfg)
}

fn run_nnue_train(args: &[String]) -> Result<(), String> {
    let mut cfg = kestrel::tools::nnue_train::Config::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--data" => cfg.data = value()?.clone(),
            "--out" => cfg.out = value()?.clone(),
            "--epochs" => cfg.epochs = parse_arg(value()?, flag)?,
            "--lr" => cfg.lr = parse_arg(value()?, flag)?,
            "--lambda" => cfg.lambda = parse_arg(value()?, flag)?,
            "--threads" => cfg.threads = parse_arg(value()?, flag)?,
            "--batch" => cfg.batch = parse_arg(value()?, flag)?,
            "--seed" => cfg.seed = parse_arg(value()?, flag)?,
            "--pure" => cfg.residual = false,
            "--init" => cfg.init = Some(value()?.clone()),
            "--anchor" => cfg.anchor = parse_arg(value()?, flag)?,
            "--factorise" => cfg.factorise = true,
            other => return Err(format!("unknown nnue-train option '{other}'")),
        }
    }
    kestrel::tools::nnue_train::run(&cfg).map(|_| ())
}
