//! Command-line tools around the engine: perft, bench, EPD suites.

pub mod bench;
pub mod epd;
pub mod perft;
