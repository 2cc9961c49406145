//! The engine's UCI options: their declarations and validated values.

use thiserror::Error;

use crate::search::params::TUNABLES;
use crate::tt::{DEFAULT_HASH_MB, MAX_HASH_MB, MIN_HASH_MB};

pub const MAX_THREADS: usize = 256;
pub const MAX_MULTIPV: usize = 256;
pub const MAX_MOVE_OVERHEAD: u64 = 5000;
pub const DEFAULT_MOVE_OVERHEAD: u64 = 10;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum OptionError {
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("option '{name}' needs a value")]
    MissingValue { name: &'static str },
    #[error("option '{name}' must be an integer from {min} to {max}, got '{value}'")]
    OutOfRange {
        name: &'static str,
        min: i64,
        max: i64,
        value: String,
    },
    #[error("option '{name}' must be true or false, got '{value}'")]
    NotBool { name: &'static str, value: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// A free-form string (`<empty>` is the customary empty default).
    Text {
        default: &'static str,
    },
}

/// Declarations, in the order `uci` lists them.
pub const DECLARATIONS: [(&str, OptionKind); 10] = [
    (
        "Hash",
        OptionKind::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: MIN_HASH_MB as i64,
            max: MAX_HASH_MB as i64,
        },
    ),
    (
        "Threads",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
    ),
    (
        "MultiPV",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
    ),
    ("Ponder", OptionKind::Check { default: false }),
    ("UCI_Chess960", OptionKind::Check { default: false }),
    (
        "Move Overhead",
        OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD as i64,
            min: 0,
            max: MAX_MOVE_OVERHEAD as i64,
        },
    ),
    ("Clear Hash", OptionKind::Button),
    ("SyzygyPath", OptionKind::Text { default: "<empty>" }),
    (
        "SyzygyProbeDepth",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    ),
    ("Syzygy50MoveRule", OptionKind::Check { default: true }),
];

/// A validated `setoption`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionChange {
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    Ponder(bool),
    Chess960(bool),
    MoveOverhead(u64),
    ClearHash,
    /// Directories of Syzygy tables; None turns tablebases off.
    SyzygyPath(Option<String>),
    SyzygyProbeDepth(i32),
    Syzygy50MoveRule(bool),
    /// One of the search's tunable numbers (builds with `--features tune`).
    Tunable(&'static str, i64),
}

fn spin(name: &'static str, value: Option<&str>) -> Result<i64, OptionError> {
    let Some((_, OptionKind::Spin { min, max, .. })) =
        DECLARATIONS.iter().find(|(n, _)| *n == name)
    else {
        return Err(OptionError::Unknown(name.to_string()));
    };
    in_range(name, *min, *max, value)
}

fn in_range(
    name: &'static str,
    min: i64,
    max: i64,
    value: Option<&str>,
) -> Result<i64, OptionError> {
    let text = value.ok_or(OptionError::MissingValue { name })?.trim();
    match text.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(OptionError::OutOfRange {
            name,
            min,
            max,
            value: text.chars().take(40).collect(),
        }),
    }
}

fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    let text = value.ok_or(OptionError::MissingValue { name })?.trim();
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::NotBool {
            name,
            value: text.chars().take(40).collect(),
        }),
    }
}

/// Validates a `setoption`; option names are matched case-insensitively.
pub fn parse_option(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
    let Some((canonical, _)) = DECLARATIONS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
    else {
        return parse_tunable(name, value);
    };
    Ok(match *canonical {
        "Hash" => OptionChange::Hash(spin("Hash", value)? as usize),
        "Threads" => OptionChange::Threads(spin("Threads", value)? as usize),
        "MultiPV" => OptionChange::MultiPv(spin("MultiPV", value)? as usize),
        "Ponder" => OptionChange::Ponder(check("Ponder", value)?),
        "UCI_Chess960" => OptionChange::Chess960(check("UCI_Chess960", value)?),
        "Move Overhead" => OptionChange::MoveOverhead(spin("Move Overhead", value)? as u64),
        "SyzygyPath" => OptionChange::SyzygyPath(path(value)),
        "SyzygyProbeDepth" => {
            OptionChange::SyzygyProbeDepth(spin("SyzygyProbeDepth", value)? as i32)
        }
        "Syzygy50MoveRule" => OptionChange::Syzygy50MoveRule(check("Syzygy50MoveRule", value)?),
        _ => OptionChange::ClearHash,
    })
}

/// A path option's value: none, blank and `<empty>` all mean no path.
fn path(value: Option<&str>) -> Option<String> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "<empty>")
        .map(str::to_string)
}

fn parse_tunable(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
    let Some(t) = TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
    else {
        return Err(OptionError::Unknown(name.chars().take(60).collect()));
    };
    let v = in_range(t.name, t.min, t.max, value)?;
    Ok(OptionChange::Tunable(t.name, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(parse_option("hash", Some("32")), Ok(OptionChange::Hash(32)));
        assert_eq!(
            parse_option("move overhead", Some("250")),
            Ok(OptionChange::MoveOverhead(250))
        );
        assert_eq!(
            parse_option("Clear Hash", None),
            Ok(OptionChange::ClearHash)
        );
    }

    #[test]
    fn out_of_range_and_garbage_are_refused() {
        assert!(matches!(
            parse_option("Hash", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_option("Hash", Some("65537")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_option("Threads", Some("abc")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_option("UCI_Chess960", Some("yes")),
            Err(OptionError::NotBool { .. })
        ));
        assert!(matches!(
            parse_option("Hash", None),
            Err(OptionError::MissingValue { .. })
        ));
        assert!(matches!(
            parse_option("Contempt", Some("5")),
            Err(OptionError::Unknown(_))
        ));
    }

    #[test]
    fn syzygy_options_parse() {
        assert_eq!(
            parse_option("syzygypath", Some("/tb/345:/tb/6")),
            Ok(OptionChange::SyzygyPath(Some("/tb/345:/tb/6".into())))
        );
        for empty in [None, Some(""), Some("<empty>")] {
            assert_eq!(
                parse_option("SyzygyPath", empty),
                Ok(OptionChange::SyzygyPath(None))
            );
        }
        assert_eq!(
            parse_option("SyzygyProbeDepth", Some("4")),
            Ok(OptionChange::SyzygyProbeDepth(4))
        );
        assert_eq!(
            parse_option("Syzygy50MoveRule", Some("false")),
            Ok(OptionChange::Syzygy50MoveRule(false))
        );
        assert!(matches!(
            parse_option("SyzygyProbeDepth", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
    }

    #[test]
    fn tunables_are_options_only_in_a_tune_build() {
        let change = parse_option("RFP_Margin", Some("90"));
        if cfg!(feature = "tune") {
            assert_eq!(change, Ok(OptionChange::Tunable("rfp_margin", 90)));
            assert!(matches!(
                parse_option("rfp_margin", Some("100000")),
                Err(OptionError::OutOfRange { .. })
            ));
        } else {
            assert!(matches!(change, Err(OptionError::Unknown(_))));
        }
    }
}
