//! Kestrel: a UCI chess engine built on shakmaty.
//!
//! The binary in `main.rs` is a thin shell around this library so that
//! tests and benches can drive every part directly.

pub mod engine;
pub mod eval;
mod large_pages;
pub mod movegen;
pub mod position;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod tt;
pub mod uci;

/// The name and version reported to GUIs.
pub const ENGINE_NAME: &str = concat!("Kestrel ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Kestrel developers";
