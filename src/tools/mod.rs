//! Command-line tools around the engine: perft, bench, EPD suites.

pub mod bench;
pub mod datagen;
pub mod epd;
pub mod nnue_train;
pub mod perft;
pub mod tune;
