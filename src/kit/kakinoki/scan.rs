//! One game's layout (KIF's and KI2's), found before its events are given: where the game ends (the first header
//! line after its moves, which starts the next game of a multi-game file) and its `変化：N手`
//! blocks, each attached to the line it branches from.
//!
//! A block attaches to the line most recently read that holds the node before move N: walking
//! back an explicit stack of open lines, the first whose first move comes before N and whose
//! last real move is at least N - 1 (the main line takes any N up to its last move + 1). A block
//! that fits no line is dropped (the reader warns). Nothing recurses; the tables are vectors the
//! reader keeps between games.

use super::glyphs;
use super::lex::{self, line_end, Enc, Kind};

/// One line of play: the main line (block 0) or a `変化` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// The offset of its `変化` line (the game's start for the main line).
    pub header: usize,
    /// Where its lines start (after the `変化` line).
    pub body: usize,
    /// Where its lines end (the next `変化` line or the game's end).
    pub end: usize,
    /// The ply of its first move (1 for the main line).
    pub ply: u32,
    /// The ply of its last real move (`ply - 1` when it has none).
    pub last: u32,
    /// The block it branches from ([`DROPPED`] when none fits).
    pub parent: u32,
}

/// The parent of a block that fits no line.
pub(crate) const DROPPED: u32 = u32::MAX;

/// Whether a line of `kind` starts a new game, after `body` (moves were seen in this game).
#[inline]
pub(crate) fn is_boundary(kind: Kind, body: &mut bool) -> bool {
    if *body && kind.starts_game() {
        *body = false;
        return true;
    }
    *body |= kind.is_body();
    false
}

/// The `N` of a `変化：N手` line (`None` when it has none).
pub(crate) fn variation_ply(line: &[u8], enc: Enc) -> Option<u32> {
    let mut i = lex::skip_spaces(line, 0, enc);
    if !lex::at(line, i, glyphs::VARIATION, enc) {
        return None;
    }
    i += lex::len(glyphs::VARIATION, enc);
    if lex::at(line, i, glyphs::COLON, enc) {
        i += lex::len(glyphs::COLON, enc);
    } else if line.get(i) == Some(&b':') {
        i += 1;
    }
    i = lex::skip_spaces(line, i, enc);
    let mut n = 0u32;
    let start = i;
    while let Some(d) = line.get(i).filter(|c| c.is_ascii_digit()) {
        n = n.checked_mul(10)?.checked_add(u32::from(d - b'0'))?;
        i += 1;
    }
    (i > start && n > 0).then_some(n)
}

/// Scans the game starting at `from`: fills `blocks` (block 0 is the main line) and returns
/// the offset where the game ends. `stack` is scratch space. `classify` gives a line's kind (the
/// format's own, on top of [`lex::classify`]); `count` a move line's real moves and whether a
/// special move ends its line of play there (KIF: one move or one special per line).
pub(crate) fn game(
    input: &[u8],
    from: usize,
    enc: Enc,
    classify: impl Fn(&[u8]) -> Kind,
    count: impl Fn(&[u8], Kind) -> (u32, bool),
    blocks: &mut Vec<Block>,
    stack: &mut Vec<u32>,
) -> usize {
    blocks.clear();
    stack.clear();
    blocks.push(Block { header: from, body: from, end: input.len(), ply: 1, last: 0, parent: 0 });
    stack.push(0);
    let (mut pos, mut body, mut ended) = (from, false, false);
    let mut cur = 0usize;
    // The moves are counted only once a `変化` line needs them: until the first one, the main
    // line's move lines are not counted (then they are, in a second pass over them).
    let mut counting = false;
    while pos < input.len() {
        let (e, next) = line_end(input, pos);
        let line = &input[pos..e];
        let kind = classify(line);
        if is_boundary(kind, &mut body) {
            blocks[cur].end = pos;
            return pos;
        }
        match kind {
            Kind::Move { .. } if counting => {
                let (n, special) = count(line, kind);
                if !ended {
                    blocks[cur].last = blocks[cur].last.saturating_add(n);
                }
                ended |= special;
            }
            Kind::Move { .. } => {}
            Kind::Variation => {
                if !counting {
                    counting = true;
                    blocks[0].last = count_moves(input, from, pos, &classify, &count);
                }
                blocks[cur].end = pos;
                let ply = variation_ply(line, enc).unwrap_or(0);
                let parent = attach(blocks, stack, ply);
                let id = blocks.len() as u32;
                blocks.push(Block {
                    header: pos,
                    body: next,
                    end: input.len(),
                    ply,
                    last: ply.saturating_sub(1),
                    parent,
                });
                if parent != DROPPED {
                    stack.push(id);
                }
                cur = id as usize;
                ended = false;
            }
            _ => {}
        }
        pos = next;
    }
    blocks[cur].end = input.len();
    input.len()
}

/// The real moves of the lines from `from` to `to` (all of one line of play), up to the first
/// special move: what [`game`] counts line by line once it counts.
fn count_moves(
    input: &[u8],
    from: usize,
    to: usize,
    classify: &impl Fn(&[u8]) -> Kind,
    count: &impl Fn(&[u8], Kind) -> (u32, bool),
) -> u32 {
    let (mut pos, mut last, mut ended) = (from, 0u32, false);
    while pos < to {
        let (e, next) = line_end(input, pos);
        let line = &input[pos..e.min(to)];
        let kind = classify(line);
        if let Kind::Move { .. } = kind {
            let (n, special) = count(line, kind);
            if !ended {
                last = last.saturating_add(n);
            }
            ended |= special;
        }
        pos = next;
    }
    last
}

/// KIF's move count for [`game`]: a move line is one move (one that reads or not: see
/// [`lex::is_move_text`]), or one special move that ends its line.
#[inline]
pub(crate) fn kif_count(_line: &[u8], kind: Kind) -> (u32, bool) {
    match kind {
        Kind::Move { real: true } => (1, false),
        _ => (0, true),
    }
}

/// The block a variation at `ply` branches from (popping lines that cannot hold it), or
/// [`DROPPED`].
fn attach(blocks: &[Block], stack: &mut Vec<u32>, ply: u32) -> u32 {
    if ply == 0 {
        return DROPPED;
    }
    while let Some(&top) = stack.last() {
        let b = &blocks[top as usize];
        if top == 0 {
            return if ply <= b.last.saturating_add(1) { 0 } else { DROPPED };
        }
        if b.ply < ply && ply <= b.last.saturating_add(1) {
            return top;
        }
        stack.pop();
    }
    DROPPED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_attach_to_the_nearest_line() {
        let kif = "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 ２六歩(27)\n4 投了\nまで3手\n\n変化：3手\n3 ７五歩(76)\n\n変化：2手\n2 ８四歩(83)\n3 ６八銀(79)\n\n変化：3手\n3 ２六歩(27)\n\n変化：1手\n1 ２六歩(27)\n先手：次\n";
        let (mut blocks, mut stack) = (Vec::new(), Vec::new());
        let end =
            game(kif.as_bytes(), 0, Enc::Utf8, |l| lex::classify(l, Enc::Utf8), kif_count, &mut blocks, &mut stack);
        assert_eq!(&kif[end..], "先手：次\n");
        let shape: Vec<_> = blocks.iter().map(|b| (b.ply, b.last, b.parent)).collect();
        assert_eq!(shape, [(1, 3, 0), (3, 3, 0), (2, 3, 0), (3, 3, 2), (1, 1, 0)]);
        assert_eq!(variation_ply("変化:12手".as_bytes(), Enc::Utf8), Some(12));
        assert_eq!(variation_ply("変化：手".as_bytes(), Enc::Utf8), None);
    }
}
