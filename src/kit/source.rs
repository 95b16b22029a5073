//! The `Iterator` and [`EventSource`](crate::EventSource) impls every reader has, written once:
//! both hand out the reader's `next_item`, and the reader adds what it does differently
//! (`skip_game`, `locate`, `event_offset`…) as the macro's extra items.

/// Implements `Iterator<Item = Result<Event<'a>, Error>>` and `EventSource` for `$reader<'a>`,
/// both calling `self.$next()`; the tokens after `;` are further items of the `EventSource`
/// impl. `Event`, `Error` and `EventSource` are named by their full paths, so the caller need
/// not import them.
macro_rules! event_source {
    ($reader:ident, $next:ident; $($rest:tt)*) => {
        impl<'a> Iterator for $reader<'a> {
            type Item = Result<$crate::event::Event<'a>, $crate::error::Error>;

            // Always: a caller's event loop is where the reader's next-event code belongs
            // (`kifu::Visit` loops lost a third of their speed when LLVM kept it apart).
            #[inline(always)]
            fn next(&mut self) -> Option<Self::Item> {
                self.$next()
            }
        }

        impl $crate::input::EventSource for $reader<'_> {
            #[inline]
            fn next_event(&mut self) -> Option<Result<$crate::event::Event<'_>, $crate::error::Error>> {
                self.$next()
            }

            $($rest)*
        }
    };
}

pub(crate) use event_source;
