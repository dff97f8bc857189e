//! What the cdpor engine and the runtime inside a checked program agree on: the visible
//! events and their dependence, the shared-memory protocol of one execution, and the
//! scheduling policy that turns a schedule into an execution.

pub mod event;
pub mod scheduler;
pub mod shm;

pub use event::{dependent, Event, Kind, ThreadSet, Tid, MAX_THREADS};
pub use scheduler::{Pick, Scheduler};
