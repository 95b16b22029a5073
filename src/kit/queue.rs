//! The one event queue of the readers: a fixed ring of `N` pending events inside the reader,
//! with one overflow policy, documented here and nowhere else.
//!
//! ## Overflow policy: spill, never drop
//! A reader queues the events one step of its state machine produces (a move and its clock, a
//! node and its properties). `N` is chosen so that a step on real input fits the ring, which
//! then costs no allocation. When a step produces more (a pathological construct: a tag with
//! dozens of unknown attributes, a JSON object with dozens of unknown keys, each one a warning
//! or a property), the excess goes to a spill buffer on the heap, in order, and comes out after
//! the ring's events; **no event is ever dropped**. The spill holds at most the events of one
//! step, each of which stands for at least one byte of that step's input, so it is bounded by
//! the size of one construct and in turn by [`Limits::max_game_len`](crate::Limits); it is kept
//! and reused for the reader's life.
//!
//! (Before this queue, each reader had its own rule: Jago XML dropped warnings past `N - 4`, JGF
//! dropped any event once its ring was full, CSA could not overflow its ring of 4.)

use crate::event::{Event, Warning};
use std::collections::VecDeque;

/// A FIFO of pending events: `N` inline, the rest spilled (see the [module docs](self)).
///
/// Invariant: the spill is empty unless the ring is full, so [`EventQueue::is_empty`] looks at
/// the ring only.
#[derive(Debug)]
pub(crate) struct EventQueue<'a, const N: usize> {
    ring: [Event<'a>; N],
    head: usize,
    len: usize,
    spill: VecDeque<Event<'a>>,
}

impl<'a, const N: usize> EventQueue<'a, N> {
    /// An empty queue (allocates nothing).
    pub(crate) fn new() -> EventQueue<'a, N> {
        EventQueue { ring: [Event::Node; N], head: 0, len: 0, spill: VecDeque::new() }
    }

    /// Whether nothing is pending.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many events are pending.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len + self.spill.len()
    }

    /// Appends `ev` (to the spill when the ring is full).
    #[inline]
    pub(crate) fn push(&mut self, ev: Event<'a>) {
        if self.len < N {
            self.ring[(self.head + self.len) % N] = ev;
            self.len += 1;
        } else {
            self.spill.push_back(ev);
        }
    }

    /// Takes the oldest pending event.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Event<'a>> {
        if self.len == 0 {
            return None;
        }
        let ev = self.ring[self.head];
        self.head = (self.head + 1) % N;
        self.len -= 1;
        if !self.spill.is_empty() {
            self.refill();
        }
        Some(ev)
    }

    /// Like [`EventQueue::pop`], but a warning comes out as `Err` when `strict` (the reader then
    /// ends the game with the error [`super::report::promoted`] makes of it).
    #[inline]
    pub(crate) fn pop_checked(&mut self, strict: bool) -> Option<Result<Event<'a>, Warning>> {
        match self.pop()? {
            Event::Warning(w) if strict => Some(Err(w)),
            ev => Some(Ok(ev)),
        }
    }

    #[cold]
    fn refill(&mut self) {
        if let Some(ev) = self.spill.pop_front() {
            self.ring[(self.head + self.len) % N] = ev;
            self.len += 1;
        }
    }

    /// Drops every pending event.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
        self.spill.clear();
    }

    /// The pending event `k` places from the front.
    pub(crate) fn get(&self, k: usize) -> Option<Event<'a>> {
        if k < self.len {
            Some(self.ring[(self.head + k) % N])
        } else {
            self.spill.get(k - self.len).copied()
        }
    }

    /// Where the first pending event for which `f` holds is, from the front.
    pub(crate) fn position(&self, mut f: impl FnMut(&Event<'a>) -> bool) -> Option<usize> {
        (0..self.len()).find(|&k| self.get(k).is_some_and(|e| f(&e)))
    }

    /// Drops the first `n` pending events.
    pub(crate) fn discard(&mut self, n: usize) {
        for _ in 0..n {
            if self.pop().is_none() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EventQueue;
    use crate::event::{Event, Warning};
    use crate::WarningKind;

    fn w(offset: u64) -> Event<'static> {
        Event::Warning(Warning { kind: WarningKind::UnknownKey, offset })
    }

    #[test]
    fn fifo_across_the_spill() {
        let mut q: EventQueue<'_, 4> = EventQueue::new();
        for round in 0..3u64 {
            for i in 0..11 {
                q.push(w(round * 100 + i));
            }
            assert_eq!(q.len(), 11);
            q.push(Event::Node);
            for i in 0..11 {
                assert_eq!(q.pop(), Some(w(round * 100 + i)));
                // Interleaved pushes keep their place after the older events.
                if i == 5 {
                    q.push(Event::VariationEnd);
                }
            }
            assert_eq!(q.pop(), Some(Event::Node));
            assert_eq!(q.pop(), Some(Event::VariationEnd));
            assert!(q.is_empty() && q.pop().is_none());
        }
    }

    #[test]
    fn nothing_is_dropped_and_strict_pops_warnings_as_err() {
        let mut q: EventQueue<'_, 2> = EventQueue::new();
        for i in 0..1000 {
            q.push(w(i));
        }
        for i in 0..1000 {
            assert_eq!(q.pop_checked(true), Some(Err(Warning { kind: WarningKind::UnknownKey, offset: i })));
        }
        assert_eq!(q.pop_checked(true), None);
        q.push(Event::Node);
        assert_eq!(q.pop_checked(true), Some(Ok(Event::Node)));
    }

    #[test]
    fn find_and_discard() {
        let mut q: EventQueue<'_, 2> = EventQueue::new();
        q.push(Event::Node);
        q.push(w(1));
        q.push(Event::GameEnd { length: 3, ending: None });
        q.push(w(2));
        let k = q.position(|e| matches!(e, Event::GameEnd { .. })).unwrap();
        assert_eq!(k, 2);
        q.discard(k + 1);
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop(), Some(w(2)));
        q.push(Event::Node);
        q.clear();
        assert_eq!((q.is_empty(), q.len()), (true, 0));
    }

    /// The cases where the readers' own queues lost events: a Jago tag with many unknown
    /// attributes (a warning each), a JGF move object with many unknown keys (a property each).
    #[test]
    fn readers_lose_nothing_on_crowded_steps() {
        let attrs: String = (0..40).map(|i| format!(" a{i}=\"1\"")).collect();
        let xml = format!("<Go><GoGame{attrs}><Nodes><Node/></Nodes></GoGame></Go>");
        let warnings = crate::jago::Reader::new(xml.as_bytes())
            .filter(|i| matches!(i, Ok(Event::Warning(w)) if w.kind == WarningKind::UnknownAttribute))
            .count();
        assert_eq!(warnings, 40);
        let keys: String = (0..50).map(|i| format!(",\"k{i}\":{i}")).collect();
        let jgf = format!("{{\"tree\":[{{\"move\":{{\"x\":1,\"y\":2,\"color\":\"B\"{keys}}}}}]}}");
        let props = crate::jgf::v2::Reader::new(jgf.as_bytes())
            .filter(|i| matches!(i, Ok(Event::Property(p)) if p.name().starts_with(b"k")))
            .count();
        assert_eq!(props, 50);
    }
}
