//! UCI text to typed commands. Nothing here touches engine state, so any
//! line a GUI (or an attacker) sends is either a `Command` or a `ParseError`.

use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    #[error("empty line")]
    Empty,
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error("'{command}' needs {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("'{param}' needs a number, got '{value}'")]
    BadNumber { param: String, value: String },
    #[error("unexpected '{token}' in '{command}'")]
    Unexpected {
        command: &'static str,
        token: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionSpec {
    StartPos,
    Fen(String),
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<i64>,
    pub mate: Option<u32>,
    pub perft: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        spec: PositionSpec,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    Display,
    Eval,
    Register,
}

const COMMANDS: [&str; 13] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "register",
];

/// Parses one line. Per the UCI specification, unknown leading tokens are
/// skipped when a known command follows them; `skipped` reports them.
pub fn parse(line: &str) -> (Result<Command, ParseError>, Option<String>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return match tokens.first() {
            None => (Err(ParseError::Empty), None),
            Some(t) => (Err(ParseError::Unknown(truncate(t))), None),
        };
    };
    let skipped = (start > 0).then(|| truncate(&tokens[..start].join(" ")));
    (parse_tokens(&tokens[start..]), skipped)
}

fn truncate(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

fn parse_tokens(tokens: &[&str]) -> Result<Command, ParseError> {
    let args = &tokens[1..];
    match tokens[0] {
        "uci" => Ok(Command::Uci),
        "debug" => Ok(Command::Debug(args.first() == Some(&"on"))),
        "isready" => Ok(Command::IsReady),
        "setoption" => parse_setoption(args),
        "ucinewgame" => Ok(Command::UciNewGame),
        "position" => parse_position(args),
        "go" => parse_go(args).map(Command::Go),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "register" => Ok(Command::Register),
        other => Err(ParseError::Unknown(truncate(other))),
    }
}

fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    if args.first() != Some(&"name") {
        return Err(ParseError::Missing {
            command: "setoption",
            what: "'name <option>'",
        });
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|t| *t == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(ParseError::Missing {
            command: "setoption",
            what: "an option name",
        });
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let moves_at = args.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let spec = match setup.first() {
        Some(&"startpos") => {
            if let Some(extra) = setup.get(1) {
                return Err(ParseError::Unexpected {
                    command: "position",
                    token: truncate(extra),
                });
            }
            PositionSpec::StartPos
        }
        Some(&"fen") if setup.len() > 1 => PositionSpec::Fen(setup[1..].join(" ")),
        Some(&"fen") => {
            return Err(ParseError::Missing {
                command: "position",
                what: "a FEN after 'fen'",
            });
        }
        Some(other) => {
            return Err(ParseError::Unexpected {
                command: "position",
                token: truncate(other),
            });
        }
        None => {
            return Err(ParseError::Missing {
                command: "position",
                what: "'startpos' or 'fen <fen>'",
            });
        }
    };
    Ok(Command::Position {
        spec,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn number<T: std::str::FromStr>(param: &str, value: Option<&&str>) -> Result<T, ParseError> {
    let value = value.ok_or(ParseError::Missing {
        command: "go",
        what: "a number after each limit",
    })?;
    value.parse().map_err(|_| ParseError::BadNumber {
        param: param.to_string(),
        value: truncate(value),
    })
}

/// Like `number` but tolerant of values too large for the type (clamped) and,
/// for clocks, negative values, which some GUIs send once a clock runs out.
fn clamped_i64(param: &str, value: Option<&&str>) -> Result<i64, ParseError> {
    let v: i128 = number(param, value)?;
    Ok(v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
}

fn clamped_u32(param: &str, value: Option<&&str>) -> Result<u32, ParseError> {
    let v: i128 = number(param, value)?;
    Ok(v.clamp(0, i128::from(u32::MAX)) as u32)
}

fn parse_go(args: &[&str]) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let val = args.get(i + 1);
        let mut takes_value = true;
        match key {
            "wtime" => go.wtime = Some(clamped_i64(key, val)?),
            "btime" => go.btime = Some(clamped_i64(key, val)?),
            "winc" => go.winc = Some(clamped_i64(key, val)?),
            "binc" => go.binc = Some(clamped_i64(key, val)?),
            "movetime" => go.movetime = Some(clamped_i64(key, val)?),
            "movestogo" => go.movestogo = Some(clamped_u32(key, val)?),
            "depth" => go.depth = Some(clamped_u32(key, val)?),
            "mate" => go.mate = Some(clamped_u32(key, val)?),
            "perft" => go.perft = Some(clamped_u32(key, val)?),
            "nodes" => {
                let v: i128 = number(key, val)?;
                go.nodes = Some(v.clamp(0, i128::from(u64::MAX)) as u64);
            }
            "infinite" => {
                go.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                go.ponder = true;
                takes_value = false;
            }
            "searchmoves" => {
                let keywords = [
                    "wtime",
                    "btime",
                    "winc",
                    "binc",
                    "movestogo",
                    "depth",
                    "nodes",
                    "movetime",
                    "mate",
                    "infinite",
                    "ponder",
                    "perft",
                ];
                let mut j = i + 1;
                while j < args.len() && !keywords.contains(&args[j]) {
                    go.searchmoves.push(args[j].to_string());
                    j += 1;
                }
                i = j;
                continue;
            }
            other => {
                return Err(ParseError::Unexpected {
                    command: "go",
                    token: truncate(other),
                });
            }
        }
        i += if takes_value { 2 } else { 1 };
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).0.unwrap()
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
    }

    #[test]
    fn position_with_moves() {
        assert_eq!(
            ok("position startpos moves e2e4 e7e5"),
            Command::Position {
                spec: PositionSpec::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        let Command::Position { spec, moves } = ok("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1")
        else {
            panic!("not a position command");
        };
        assert_eq!(
            spec,
            PositionSpec::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into())
        );
        assert!(moves.is_empty());
    }

    #[test]
    fn go_with_everything() {
        let Command::Go(go) =
            ok("go wtime -50 btime 1000 winc 10 binc 10 movestogo 5 searchmoves e2e4 d2d4 depth 3")
        else {
            panic!("not go");
        };
        assert_eq!(go.wtime, Some(-50));
        assert_eq!(go.movestogo, Some(5));
        assert_eq!(go.depth, Some(3));
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
    }

    #[test]
    fn bad_numbers_are_errors() {
        assert!(matches!(
            parse("go depth x").0,
            Err(ParseError::BadNumber { .. })
        ));
        assert!(matches!(
            parse("go wtime").0,
            Err(ParseError::Missing { .. })
        ));
        assert!(parse("go nodes 99999999999999999999999").0.is_ok());
    }

    #[test]
    fn unknown_tokens_before_a_command_are_skipped() {
        let (cmd, skipped) = parse("joho debug on");
        assert_eq!(cmd, Ok(Command::Debug(true)));
        assert_eq!(skipped.as_deref(), Some("joho"));
        assert!(matches!(parse("xyzzy").0, Err(ParseError::Unknown(_))));
        assert_eq!(parse("   ").0, Err(ParseError::Empty));
    }
}
