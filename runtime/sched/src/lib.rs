//! What the cdpor engine and the runtime inside a checked program agree on: the visible
//! events, what each operation means (`ops`: footprint, dependence, enabledness, effect),
//! the shared-memory protocol of one execution, and the scheduling policy that turns a
//! schedule into an execution.

pub mod event;
pub mod handoff;
pub mod layout;
pub mod ops;
pub mod scheduler;
pub mod shm;

pub use event::{Event, Kind, Step, ThreadSet, Tid, MAX_THREADS};
pub use ops::{dependent, World};
pub use scheduler::{Pick, Scheduler};
