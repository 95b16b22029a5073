//! Building a [`GameTree`] from a stream of events.

use super::record::{PointsKind, Rec};
use super::{packed, GameTree, NodeRec, NONE};
use crate::error::{Error, ErrorKind, Limit, Position};
use crate::event::{Branch, Event, Warning};
use crate::input::EventSource;
use bumpalo::Bump;

/// Builds the next game of `source` into `bump`; `Ok(None)` at the end of input.
///
/// A convenience for [`Builder::build`] with a fresh builder (whose scratch vectors are then
/// allocated for this game only); keep a [`Builder`] to build many games.
///
/// Errors are the source's (the partial game is dropped; in lenient mode the next call builds
/// the next game) or [`ErrorKind::LimitExceeded`] when a game has more than `u32::MAX - 1` nodes
/// or events, or 4 GiB of text.
pub fn build<'b, S: EventSource + ?Sized>(bump: &'b Bump, source: &mut S) -> Result<Option<GameTree<'b>>, Error> {
    Builder::new().build(bump, source)
}

/// Builds game trees, keeping its scratch vectors between games so that building allocates on
/// the heap only while they grow.
///
/// ```
/// let mut reader = kifu::sgf::Reader::new(b"(;B[aa])(;B[bb];W[cc])");
/// let mut builder = kifu::tree::Builder::new();
/// let mut bump = bumpalo::Bump::new();
/// let mut sizes = Vec::new();
/// loop {
///     bump.reset();
///     match builder.build(&bump, &mut reader).unwrap() {
///         Some(game) => sizes.push(game.len()),
///         None => break,
///     }
/// }
/// assert_eq!(sizes, [2, 3]); // the game node and the nodes
/// ```
#[derive(Debug, Default)]
pub struct Builder {
    parent: Vec<u32>,
    /// Index of the node's first record, valid while records come in node order.
    first: Vec<u32>,
    packed: Vec<u32>,
    last_child: Vec<u32>,
    /// `(node, next sibling)` pairs, as branches are seen.
    siblings: Vec<(u32, u32)>,
    /// `(node, first record)` for nodes with records.
    rec_index: Vec<(u32, u32)>,
    recs: Vec<Rec>,
    /// The node each record belongs to.
    owner: Vec<u32>,
    text: Vec<u8>,
    warnings: Vec<Warning>,
    /// The node to return to at each open variation's end.
    frames: Vec<u32>,
    /// A record came for a node other than the last one made: sort records at the end.
    unsorted: bool,
}

/// What the build loop does with one event.
enum Next {
    Go,
    End { length: Option<u64>, ending: Option<crate::event::Ending> },
}

impl Builder {
    /// A builder with empty scratch vectors.
    pub fn new() -> Builder {
        Builder::default()
    }

    fn clear(&mut self) {
        self.parent.clear();
        self.first.clear();
        self.packed.clear();
        self.last_child.clear();
        self.siblings.clear();
        self.recs.clear();
        self.owner.clear();
        self.text.clear();
        self.warnings.clear();
        self.frames.clear();
    }

    /// Builds the next game of `source` into `bump`; `Ok(None)` at the end of input. See [`build`].
    ///
    /// Events before the game's `GameStart` are dropped except warnings (kept in
    /// [`GameTree::warnings`]). A source that ends without `GameEnd` gives a tree whose
    /// [`length`](GameTree::length) is `None`. An unbalanced `VariationEnd` is ignored; variations
    /// still open at the end are closed.
    pub fn build<'b, S: EventSource + ?Sized>(
        &mut self,
        bump: &'b Bump,
        source: &mut S,
    ) -> Result<Option<GameTree<'b>>, Error> {
        self.clear();
        let mut offset = None;
        let mut cur = 0u32;
        self.unsorted = false;
        let mut reorder = false;
        let end = loop {
            let ev = match source.next_event() {
                None => break Next::End { length: None, ending: None },
                Some(Err(e)) => return Err(e),
                Some(Ok(ev)) => ev,
            };
            let step = match ev {
                Event::GameStart { offset: o } => {
                    if offset.is_none() {
                        offset = Some(o);
                        self.add_node(NONE);
                    }
                    Ok(Next::Go)
                }
                Event::Warning(w) => {
                    self.warnings.push(w);
                    Ok(Next::Go)
                }
                _ if offset.is_none() => Ok(Next::Go),
                Event::GameEnd { length, ending } => Ok(Next::End { length: Some(length), ending }),
                Event::Node => match self.add_node(cur) {
                    Some(id) => {
                        cur = id;
                        Ok(Next::Go)
                    }
                    None => Err(Limit::Nodes),
                },
                Event::VariationStart(branch) => {
                    self.frames.push(cur);
                    if branch == Branch::Sibling && cur != 0 {
                        cur = self.parent[cur as usize];
                        reorder = true;
                    }
                    Ok(Next::Go)
                }
                Event::VariationEnd => {
                    if let Some(r) = self.frames.pop() {
                        cur = r;
                    }
                    Ok(Next::Go)
                }
                Event::Move(m) if !packed::has_move(self.packed[cur as usize]) && packed::pack(m).is_some() => {
                    // The common case: a node's first move, stored in the node.
                    self.packed[cur as usize] |= packed::pack(m).unwrap_or(0);
                    Ok(Next::Go)
                }
                other if self.push_point(&other, cur) => Ok(Next::Go),
                other => match Rec::from_event(&other, &mut self.text) {
                    Ok(Some(rec)) => {
                        let p = &mut self.packed[cur as usize];
                        let inline = match rec {
                            Rec::Move(m) if !packed::has_move(*p) => packed::pack(m),
                            _ => None,
                        };
                        match inline {
                            Some(bits) => *p |= bits,
                            None if self.recs.len() >= NONE as usize - 1 => return Err(limit(source, Limit::Nodes)),
                            None => {
                                self.recs.push(rec);
                                self.owner.push(cur);
                                // `first` was set when the last node was made: a record for an
                                // earlier node (after a variation) needs a sort at the end.
                                self.unsorted |= cur as usize + 1 != self.parent.len();
                            }
                        }
                        Ok(Next::Go)
                    }
                    Ok(None) => Ok(Next::Go),
                    Err(_) => Err(Limit::GameSize),
                },
            };
            match step {
                Ok(Next::Go) => {}
                Ok(end) => break end,
                Err(l) => {
                    let e = limit(source, l);
                    source.skip_game()?;
                    return Err(e);
                }
            }
        };
        let Some(offset) = offset else { return Ok(None) };
        let Next::End { length, ending } = end else { return Ok(None) };
        if reorder {
            self.renumber_preorder();
            self.unsorted = true;
        }
        if self.unsorted {
            self.sort_records();
        }
        self.siblings.sort_unstable();
        let n = self.parent.len();
        self.rec_index.clear();
        for i in 0..n {
            let end = self.first.get(i + 1).map_or(self.recs.len() as u32, |&f| f);
            if self.first[i] < end {
                self.rec_index.push((i as u32, self.first[i]));
                self.packed[i] |= packed::HAS_RECS;
            }
        }
        // Smallest slices first: they share the arena's first chunk, and the nodes (usually the
        // largest) get a chunk of their own size rather than one twice as large as needed.
        let warnings = bump.alloc_slice_copy(&self.warnings);
        let siblings = bump.alloc_slice_copy(&self.siblings);
        let rec_index = bump.alloc_slice_copy(&self.rec_index);
        let text = bump.alloc_slice_copy(&self.text);
        let recs = bump.alloc_slice_copy(&self.recs);
        let (parent, packed) = (&self.parent, &self.packed);
        let nodes = bump.alloc_slice_fill_iter((0..n).map(|i| NodeRec { parent: parent[i], packed: packed[i] }));
        Ok(Some(GameTree { nodes, recs, text, siblings, rec_index, warnings, offset, length, ending }))
    }

    /// Adds a setup stone or plain mark to the node's last run of points, or starts a run;
    /// `false` for other events.
    #[inline]
    fn push_point(&mut self, ev: &Event<'_>, cur: u32) -> bool {
        let Some((kind, p)) = PointsKind::of(ev) else { return false };
        if self.owner.last() == Some(&cur) {
            if let Some(last) = self.recs.last_mut() {
                if last.push_point(kind, p) {
                    return true;
                }
            }
        }
        if self.recs.len() >= NONE as usize - 1 {
            return false;
        }
        self.recs.push(Rec::points(kind, p));
        self.owner.push(cur);
        self.unsorted |= cur as usize + 1 != self.parent.len();
        true
    }

    /// Adds a node below `parent` (`NONE` for the game node); `None` past `u32` indices.
    #[inline]
    fn add_node(&mut self, parent: u32) -> Option<u32> {
        let id = self.parent.len();
        if id >= NONE as usize - 1 {
            return None;
        }
        let id = id as u32;
        if parent != NONE {
            let last = self.last_child[parent as usize];
            if last != NONE {
                self.siblings.push((last, id));
                self.packed[last as usize] |= packed::HAS_SIBLING;
            }
            self.last_child[parent as usize] = id;
        }
        self.parent.push(parent);
        self.first.push(self.recs.len() as u32);
        self.packed.push(0);
        self.last_child.push(NONE);
        Some(id)
    }

    /// Renumbers nodes in depth-first pre-order (needed after `Branch::Sibling` variations,
    /// whose nodes are created before the rest of the line they branch from).
    fn renumber_preorder(&mut self) {
        let n = self.parent.len();
        // Children lists in creation (file) order, as a compressed sparse row.
        let mut start = vec![0u32; n + 1];
        for &p in &self.parent[1..] {
            start[p as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut kids = vec![0u32; n.saturating_sub(1)];
        for (c, &p) in self.parent.iter().enumerate().skip(1) {
            kids[fill[p as usize] as usize] = c as u32;
            fill[p as usize] += 1;
        }
        // Pre-order with an explicit stack (children pushed in reverse).
        let mut new_of = vec![NONE; n];
        let mut order = Vec::with_capacity(n);
        let mut stack = vec![0u32];
        while let Some(x) = stack.pop() {
            new_of[x as usize] = order.len() as u32;
            order.push(x);
            let (a, b) = (start[x as usize] as usize, start[x as usize + 1] as usize);
            stack.extend(kids[a..b].iter().rev());
        }
        let mut parent = vec![NONE; n];
        let mut packed_v = vec![0u32; n];
        self.siblings.clear();
        for (new, &old) in order.iter().enumerate() {
            let p = self.parent[old as usize];
            parent[new] = if p == NONE { NONE } else { new_of[p as usize] };
            packed_v[new] = self.packed[old as usize] & !packed::HAS_SIBLING;
            let (a, b) = (start[old as usize] as usize, start[old as usize + 1] as usize);
            for w in kids[a..b].windows(2) {
                let (x, y) = (new_of[w[0] as usize], new_of[w[1] as usize]);
                self.siblings.push((x, y));
            }
        }
        for &(x, _) in &self.siblings {
            packed_v[x as usize] |= packed::HAS_SIBLING;
        }
        for o in &mut self.owner {
            *o = new_of[*o as usize];
        }
        self.parent = parent;
        self.packed = packed_v;
    }

    /// Puts records in node order (stable), and sets each node's first record.
    fn sort_records(&mut self) {
        let n = self.parent.len();
        let mut count = vec![0u32; n + 1];
        for &o in &self.owner {
            count[o as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        self.first.clear();
        self.first.extend_from_slice(&count[..n]);
        let mut recs = self.recs.clone();
        for (r, &o) in self.recs.iter().zip(&self.owner) {
            recs[count[o as usize] as usize] = *r;
            count[o as usize] += 1;
        }
        self.recs = recs;
    }
}

fn limit<S: EventSource + ?Sized>(source: &mut S, which: Limit) -> Error {
    let pos = match source.event_offset() {
        Some(o) => source.locate(o),
        None => Position::default(),
    };
    let what = match which {
        Limit::Nodes => "more nodes or events in one game than a tree can index (u32)",
        _ => "more than 4 GiB of text in one game",
    };
    Error::new(ErrorKind::LimitExceeded(which), pos, what)
}
