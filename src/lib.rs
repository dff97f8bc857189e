//! cdpor: a stateless model checker for multithreaded C programs.
//!
//! `program` compiles and instruments a C file, `executor` runs its executions in a fork
//! server, `engine` (pure, no I/O) decides which executions to run with dynamic partial
//! order reduction, `explore` drives the two, and `report` tells the user what was found.

pub mod ahead;
pub mod engine;
pub mod executor;
pub mod explore;
mod hangs;
pub mod instrument;
pub mod interrupt;
mod link;
mod pool;
pub mod program;
pub mod report;
pub mod sarif;
pub mod schedule;
pub mod style;
pub mod symbols;
pub mod syscall;
pub mod types;
