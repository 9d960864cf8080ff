//! Several threads on one search (Lazy SMP): every thread searches the same root by
//! iterative deepening on the shared transposition table, each with its own history. What
//! one finds, the others read from the table, so the main thread's search goes deeper in
//! the same time. Only the main thread keeps time, reports and answers; the helpers stop
//! when it is done (or at `stop`). Half the helpers start one ply deeper, so that the
//! threads do not all search the same depth at the same time.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::{Info, Limits, Root, SearchResult, Worker};
use crate::game::Game;

/// What the threads of one search share besides the table.
pub(super) struct Shared {
    /// Set once the main thread is done: the helpers stop.
    done: AtomicBool,
    /// Nodes the helpers have searched so far (each adds its count every 1024 nodes).
    helper_nodes: AtomicU64,
}

/// Searches `root` with `main` and the `helpers`, each on a thread of its own (the main one
/// on the caller's); returns the main thread's result, with every thread's nodes.
pub(super) fn search<G: Game>(
    main: &mut Worker<G>,
    helpers: &mut [Worker<G>],
    root: &Root<G>,
    limits: &Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let shared = Arc::new(Shared {
        done: AtomicBool::new(false),
        helper_nodes: AtomicU64::new(0),
    });
    for w in std::iter::once(&mut *main).chain(helpers.iter_mut()) {
        w.shared = Some(shared.clone());
    }
    let result = std::thread::scope(|s| {
        for (i, h) in helpers.iter_mut().enumerate() {
            let first = 1 + (i % 2 == 0) as u32;
            let spawned = std::thread::Builder::new()
                .name("ply-helper".into())
                .stack_size(64 << 20)
                .spawn_scoped(s, move || h.run_helper(root, first, stop));
            if let Err(e) = spawned {
                log::warn!("cannot start a search thread: {e}");
            }
        }
        let result = main.run(root, limits, stop, report);
        shared.done.store(true, Ordering::Relaxed);
        result
    });
    let mut result = result;
    result.nodes = main.nodes + shared.helper_nodes.load(Ordering::Relaxed);
    for w in std::iter::once(main).chain(helpers.iter_mut()) {
        w.shared = None;
    }
    result
}

impl<G: Game> Worker<G> {
    /// Whether the main thread has finished the search this helper works for.
    #[inline]
    pub(super) fn main_done(&self) -> bool {
        self.shared
            .as_ref()
            .is_some_and(|s| s.done.load(Ordering::Relaxed))
    }

    /// Adds the nodes searched since the last call to the shared count (helpers only: the
    /// main thread counts its own).
    pub(super) fn publish_nodes(&mut self) {
        if let Some(s) = self.shared.as_ref().filter(|_| self.helper) {
            s.helper_nodes
                .fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// This thread's nodes, and the helpers' when it is the main thread of several.
    pub(super) fn total_nodes(&self) -> u64 {
        let helpers = self.shared.as_ref().filter(|_| !self.helper);
        self.nodes + helpers.map_or(0, |s| s.helper_nodes.load(Ordering::Relaxed))
    }
}
