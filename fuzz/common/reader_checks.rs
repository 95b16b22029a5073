//! The checks every fuzz target of a line-based reader makes (GIB, NGF, UGF, KIF, KI2, USI),
//! written once: no panic, no loop without progress, the stream's contract (`kifu::kit`), errors
//! inside games, every Node but the root's followed by a Move before the next Node, strict ⊆
//! lenient, and skip_game agreeing with reading. A target adds what only its format has (chunk bounds, the board its
//! moves replay on, its writer).

/// `reader_checks!(gib, input)`: runs the checks on `kifu::gib::Reader` over `input` and gives
/// the lenient reading's items and its number of games.
macro_rules! reader_checks {
    ($format:ident, $input:expr) => {{
        use kifu::kit::Contract;
        use kifu::{Config, Event, EventSource};
        let input: &[u8] = $input;
        let cap = input.len() * 16 + 64;
        let lenient: Vec<_> = kifu::$format::Reader::new(input).take(cap).collect();
        assert!(lenient.len() < cap, "no progress");
        let mut contract = Contract::new(input.len(), false);
        // After a node that is not the game's root (which may hold nothing, as in a game
        // without a header), the node's move comes before any other node.
        let (mut after_node, mut root) = (false, false);
        for item in &lenient {
            if item.is_err() {
                assert!(contract.in_game(), "errors happen inside games");
            }
            contract.item(item.as_ref());
            if std::mem::take(&mut after_node) && item.is_ok() {
                assert!(!matches!(item, Ok(Event::Node)), "{item:?} after Node");
            }
            match item {
                Ok(Event::GameStart { .. }) => root = true,
                Ok(Event::Node) => after_node = !std::mem::take(&mut root),
                _ => {}
            }
        }
        contract.finish();
        let strict: Vec<_> = kifu::$format::Reader::with_config(input, Config::strict()).collect();
        kifu::kit::check_items(input, &strict, true);
        if strict.iter().all(|i| i.is_ok()) {
            assert!(lenient.iter().zip(&strict).all(|(l, s)| l.as_ref().ok() == s.as_ref().ok()));
            assert_eq!(lenient.len(), strict.len());
        }
        let games = lenient.iter().filter(|i| matches!(i, Ok(Event::GameStart { .. }))).count();
        if lenient.iter().all(|i| i.is_ok()) {
            let mut r = kifu::$format::Reader::new(input);
            let mut skipped = 0;
            while r.skip_game().unwrap() {
                skipped += 1;
            }
            assert_eq!(skipped, games);
        }
        (lenient, games)
    }};
}
