//! `pthread_once` (and C11 `call_once`). A once-control is its 4 bytes (`SIZE`), whose
//! word (`World::sync_word`) is 0 before the first call, the caller's number + 2 while
//! that caller runs the initializer, and 1 once it has. A call is two events: `OnceBegin`
//! (enabled unless another thread is running the initializer; it either starts running
//! it or finds it done, `FLAG_FAILED`, and only reads) and, after the initializer,
//! `OnceEnd`. Every begin races with the begin that ran the initializer, so each caller
//! is tried as the one that runs it; a begin that found it done does not race with other
//! such begins.

use super::{Footprint, Mode, Range, World};
use crate::event::{Event, Kind, FLAG_FAILED};

/// `sizeof(pthread_once_t)`.
pub const SIZE: u64 = 4;
const DONE: u32 = 1;

pub(super) fn footprint(e: &Event) -> Footprint {
    let mode = if e.failed() {
        Mode::Read
    } else {
        Mode::ReadWrite
    };
    Footprint::one(Range::new(e.addr, SIZE, mode))
}

/// The once-control a begin races for with the begin that ran the initializer.
pub(super) fn contends(e: &Event) -> Option<u64> {
    (e.kind() == Kind::OnceBegin).then_some(e.addr)
}

/// The once-control whose initializer the begin `e` runs.
pub(super) fn acquires(e: &Event) -> Option<u64> {
    (e.kind() == Kind::OnceBegin && !e.failed()).then_some(e.addr)
}

/// A begin that waited for the initializer to finish cannot move before the end.
pub(super) fn enables(e: &Event, c: &Event) -> bool {
    e.kind() == Kind::OnceBegin && c.kind() == Kind::OnceEnd && c.addr == e.addr
}

/// Is another thread running the initializer?
pub fn running<W: World>(w: &W, e: &Event) -> bool {
    w.sync_word(e.addr) > DONE
}

pub(super) fn enabled<W: World>(w: &W, e: &Event) -> bool {
    e.kind() != Kind::OnceBegin || !running(w, e)
}

/// Executes `e`; a begin returns 1 when its thread is to run the initializer.
pub(super) fn execute<W: World>(w: &mut W, e: &mut Event) -> i32 {
    match e.kind() {
        Kind::OnceBegin if w.sync_word(e.addr) == DONE => {
            e.flags |= FLAG_FAILED;
            0
        }
        Kind::OnceBegin => {
            w.set_sync_word(e.addr, e.tid + 2);
            1
        }
        _ => {
            w.set_sync_word(e.addr, DONE);
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::testing::TestWorld;
    use crate::ops::{dependent, enabled, execute};

    #[test]
    fn one_caller_runs_it_the_others_wait_then_find_it_done() {
        let mut w = TestWorld::default();
        let mut b1 = Event::on(1, Kind::OnceBegin, 16);
        assert_eq!(execute(&mut w, &mut b1, 0), 1);
        let b2 = Event::on(2, Kind::OnceBegin, 16);
        assert!(!enabled(&w, &b2), "T1 runs the initializer");
        execute(&mut w, &mut Event::on(1, Kind::OnceEnd, 16), 1);
        let mut b2 = b2;
        assert!(enabled(&w, &b2));
        assert_eq!(execute(&mut w, &mut b2, 2), 0);
        assert!(b2.failed() && acquires(&b2).is_none() && contends(&b2) == Some(16));
        let mut b3 = Event::on(3, Kind::OnceBegin, 16);
        execute(&mut w, &mut b3, 3);
        assert!(!dependent(&b2, &b3), "two calls that found it done commute");
        assert!(dependent(&b1, &b3));
    }
}
