//! The incremental analysis against analyses from scratch. An engine that keeps the
//! happens-before state of the prefix each execution re-runs must see, at every
//! execution, exactly the races and the happens-before answers of an engine that
//! analyses every execution from its first event, and so ask for the same executions in
//! the same order and end with the same counts. Random programs of every kind, every
//! algorithm, and step bounds that cut executions (pending events, `scope.cut`).

use proptest::prelude::*;

use super::hb::{Hb, Later};
use super::sim::{self, Program};
use super::tests::random;
use super::{Algorithm, Engine};

/// Executions compared per program and algorithm: enough to go through many rollbacks,
/// few enough for `none`.
const LIMIT: usize = 400;

/// Every answer `reverse` may ask of the analysis of `run`.
fn same_relation(a: &Hb, b: &Hb, run: &sim::Run) -> Result<(), TestCaseError> {
    let n = run.events.len();
    let pending = &run.pending;
    for i in 0..n {
        for j in 0..n {
            prop_assert_eq!(a.hb(i, j), b.hb(i, j), "hb({}, {})", i, j);
            let later = Later::Event(j);
            prop_assert_eq!(
                a.hb_thread_of(i, later, pending),
                b.hb_thread_of(i, later, pending)
            );
        }
        for (k, p) in pending.iter().enumerate() {
            let t = p.event.tid();
            prop_assert_eq!(a.hb_pending(i, t), b.hb_pending(i, t));
            let later = Later::Pending(k);
            prop_assert_eq!(
                a.hb_thread_of(i, later, pending),
                b.hb_thread_of(i, later, pending)
            );
        }
    }
    Ok(())
}

/// Explores `prog` with an incremental engine and a from-scratch one side by side.
fn lockstep(prog: &Program, alg: Algorithm, max_steps: usize) -> Result<(), TestCaseError> {
    let mut incremental = Engine::new(alg);
    let mut scratch = Engine::from_scratch(alg);
    for _ in 0..LIMIT {
        let req = incremental.next_request();
        prop_assert_eq!(req, scratch.next_request());
        let Some(req) = req else {
            break;
        };
        let run = sim::run(prog, req, max_steps, false);
        let trace = run.trace();
        // A step bound can end an execution before the planned branch does: both
        // engines must take that the same way (as nondeterminism, today).
        // The halves of `record`, so that the analysis is compared before `prepare`
        // takes it back for the next execution (which is then compared in turn).
        let result = incremental.take(&trace).map(|_| ());
        prop_assert_eq!(&result, &scratch.take(&trace).map(|_| ()));
        if result.is_err() {
            break;
        }
        incremental.plan(&trace);
        scratch.plan(&trace);
        let ((hb, races), (hb0, races0)) = (incremental.analysed(), scratch.analysed());
        prop_assert_eq!(races, races0, "{:?}", run.events);
        if alg != Algorithm::None {
            same_relation(hb, hb0, &run)?;
        }
        incremental.prepare(&trace);
        scratch.prepare(&trace);
    }
    prop_assert_eq!(incremental.stats(), scratch.stats());
    Ok(())
}

fn any_program() -> impl Strategy<Value = Program> {
    prop_oneof![
        3 => random::program(),
        1 => random::memory_program(),
        1 => random::condition_program(),
        1 => random::rwlock_program(),
        1 => random::kinds_program(),
        1 => random::await_program(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, rng_algorithm: prop::test_runner::RngAlgorithm::ChaCha, rng_seed: prop::test_runner::RngSeed::Fixed(0x1ac_2026), ..ProptestConfig::default() })]

    #[test]
    fn the_incremental_analysis_matches_one_from_scratch(
        prog in any_program(),
        // Unbounded, or cut within the program's events.
        max_steps in prop_oneof![Just(10_000), 3..25usize],
    ) {
        for alg in Algorithm::ALL {
            lockstep(&prog, alg, max_steps)?;
        }
    }
}
