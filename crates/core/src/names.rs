//! One declaration of the text names of an enum's values.

/// Declares the text name of each value of a fieldless enum once, and
/// derives from it everything that reads or writes those names:
///
/// * `NAMES`: each value with its name, in the order given;
/// * `ACCEPTED`: every text `FromStr` reads, the names first, then the
///   older spellings (after `|`) still read for compatibility;
/// * `EXPECTED`: the names as a list for error messages (`a, b or c`);
/// * `ALLOWED_NAMES`: the names as data ([`Allowed::Names`](crate::Allowed)),
///   for errors that say what a rule option takes;
/// * `as_str`, `Display` (the name) and `FromStr` (any accepted text,
///   matched exactly; [`ParseNameError`](crate::ParseNameError) otherwise).
///
/// An optional `renamed { "old" | "Old" => Value }` block lists former
/// names that are no longer read: they are refused with an error that
/// names the value's new name (`ParseNameError::renamed_to`), because a
/// silent alias would keep a changed rule under its old name.
///
/// Serde can then go through the text with
/// `serde_via_text!` (feature `serde`).
///
/// ```
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// pub enum Jumps {
///     None,
///     HorizontalOnly,
/// }
///
/// qi_core::text_names!(Jumps {
///     None => "none",
///     HorizontalOnly => "horizontal" | "horizontal_only",
/// });
///
/// assert_eq!(Jumps::HorizontalOnly.to_string(), "horizontal");
/// assert_eq!("horizontal_only".parse(), Ok(Jumps::HorizontalOnly));
/// assert_eq!(Jumps::EXPECTED, "none or horizontal");
/// assert!("Horizontal".parse::<Jumps>().is_err());
/// ```
#[macro_export]
macro_rules! text_names {
    (@expected $a:literal) => { $a };
    (@expected $a:literal, $b:literal) => { concat!($a, " or ", $b) };
    (@expected $a:literal, $($rest:literal),+) => {
        concat!($a, ", ", $crate::text_names!(@expected $($rest),+))
    };
    ($ty:ident { $($variant:ident => $name:literal $(| $alias:literal)*),+ $(,)? }
     $(renamed { $($old:literal $(| $old_alias:literal)* => $new:ident),+ $(,)? })?) => {
        impl $ty {
            /// Each value with its name, in declaration order.
            pub const NAMES: &'static [($ty, &'static str)] = &[$(($ty::$variant, $name)),+];

            /// Every text `FromStr` reads with its value: the names, then
            /// older spellings still read for compatibility.
            pub const ACCEPTED: &'static [($ty, &'static str)] = &[
                $(($ty::$variant, $name),)+
                $($(($ty::$variant, $alias),)*)+
            ];

            /// The names as a list for error messages.
            pub const EXPECTED: &'static str = $crate::text_names!(@expected $($name),+);

            /// The names as data, for errors that say what an option takes.
            pub const ALLOWED_NAMES: $crate::Allowed = $crate::Allowed::Names { names: &[$($name),+] };

            /// The value's name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        impl ::core::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.pad(self.as_str())
            }
        }

        impl ::core::str::FromStr for $ty {
            type Err = $crate::ParseNameError;
            fn from_str(text: &str) -> ::core::result::Result<$ty, $crate::ParseNameError> {
                match text {
                    $($name $(| $alias)* => Ok($ty::$variant),)+
                    $($($old $(| $old_alias)* => Err($crate::ParseNameError::renamed(
                        text,
                        $ty::EXPECTED,
                        $ty::$new.as_str(),
                    )),)+)?
                    _ => Err($crate::ParseNameError::new(text, $ty::EXPECTED)),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::ParseNameError;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Count {
        One,
        Two,
        Three,
    }

    crate::text_names!(Count {
        One => "one" | "1",
        Two => "two",
        Three => "three" | "3" | "iii",
    } renamed {
        "deux" | "Deux" => Two,
    });

    #[test]
    fn renamed_names_are_refused_with_the_new_name() {
        let err = "Deux".parse::<Count>().unwrap_err();
        assert_eq!(err.renamed_to, Some("two"));
        assert_eq!(
            err.to_string(),
            "unknown value 'Deux' (expected one, two or three); it is now called 'two'"
        );
        assert!(Count::ACCEPTED.iter().all(|&(_, text)| text != "deux"));
    }

    #[test]
    fn names_round_trip_and_aliases_are_read() {
        assert_eq!(Count::EXPECTED, "one, two or three");
        assert_eq!(Count::ALLOWED_NAMES.to_string(), Count::EXPECTED);
        for &(value, name) in Count::NAMES {
            assert_eq!(value.as_str(), name);
            assert_eq!(value.to_string(), name);
            assert_eq!(name.parse(), Ok(value));
        }
        assert_eq!(Count::ACCEPTED.len(), 6);
        for &(value, text) in Count::ACCEPTED {
            assert_eq!(text.parse(), Ok(value));
        }
        assert_eq!(format!("[{:>5}]", Count::Two), "[  two]");
        assert_eq!(
            "four".parse::<Count>(),
            Err(ParseNameError::new("four", "one, two or three"))
        );
        assert_eq!(
            "One".parse::<Count>().unwrap_err().to_string(),
            "unknown value 'One' (expected one, two or three)"
        );
    }
}
